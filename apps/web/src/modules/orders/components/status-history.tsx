import type { OrderDetail } from '@digicard/contracts';
import { ActorText, StatusText, when } from './order-labels';

/** An order's moves, oldest first: when, the state it reached, who moved it, and the note given (owner and print console). */
export function StatusHistory({ history }: { history: OrderDetail['history'] }) {
  return (
    <details className="orders__history">
      <summary>Status history</summary>
      <ol>
        {history.map((h, i) => (
          <li key={i}>
            {`${when(h.at)}: ${StatusText[h.to]} (${ActorText[h.by]})`}
            {h.note ? <q className="orders__note">{h.note}</q> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
