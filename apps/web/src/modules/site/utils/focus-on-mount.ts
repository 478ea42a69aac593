/**
 * A ref callback that moves the focus onto an element when it appears (give it `tabIndex={-1}`), so keyboard and
 * screen-reader users land on a result that replaced what they were on. One stable function: React calls it once
 * per mount, not on every render.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
