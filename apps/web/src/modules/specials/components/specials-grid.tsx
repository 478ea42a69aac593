import { Link } from 'react-router';
import { SPECIALS, specialPath } from '../specials';

/** One square per special; the whole square is clickable through its heading link. */
export function SpecialsGrid() {
  return (
    <ul className="specials-grid">
      {SPECIALS.map((special) => (
        <li key={special.id} className={`special-tile special-tile--${special.material}`}>
          <div className="special-tile__card" aria-hidden="true">
            <svg className="special-tile__nfc" viewBox="0 0 24 24" width="24" height="24" focusable="false">
              <path
                d="M7 8.5a5 5 0 0 1 0 7M11 6a9 9 0 0 1 0 12M15 3.5a13 13 0 0 1 0 17"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </div>
          <h3 className="special-tile__name">
            <Link to={specialPath(special.id)} className="special-tile__link">
              {special.name}
            </Link>
          </h3>
          <p className="special-tile__description">{special.description}</p>
          <p className="special-tile__more" aria-hidden="true">
            View special →
          </p>
        </li>
      ))}
    </ul>
  );
}
