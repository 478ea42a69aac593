import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from '../pages/error-page';

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

/** Keeps the header and footer when a page throws while rendering; the layout remounts it on each new page. */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A page failed to render.', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}
