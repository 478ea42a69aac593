/** A phone showing a profile page, with an NFC card beside it. Decorative; shown on wide screens only. */
export function HeroArt() {
  return (
    <svg className="hero__art" viewBox="0 0 300 340" width="300" height="340" aria-hidden="true" focusable="false">
      <g transform="rotate(-12 92 250)">
        <rect x="10" y="200" width="172" height="108" rx="12" fill="#111417" />
        <path d="M84 226a14 14 0 0 1 0 20M92 219a24 24 0 0 1 0 34" fill="none" stroke="#ffffff" strokeWidth="3" strokeLinecap="round" />
        <rect x="30" y="280" width="80" height="6" rx="3" fill="#ffffff" opacity="0.8" />
      </g>
      <rect x="120" y="10" width="164" height="316" rx="24" fill="#dfe7ed" />
      <rect x="130" y="24" width="144" height="288" rx="14" fill="#ffffff" />
      <rect x="130" y="24" width="144" height="70" rx="14" fill="#ffc94a" />
      <rect x="130" y="70" width="144" height="24" fill="#ffc94a" />
      <circle cx="202" cy="96" r="26" fill="#0b4f6c" stroke="#ffffff" strokeWidth="4" />
      <rect x="162" y="132" width="80" height="9" rx="4" fill="#16202a" />
      <rect x="174" y="147" width="56" height="7" rx="3" fill="#46525e" />
      <rect x="146" y="168" width="112" height="22" rx="6" fill="#0b4f6c" />
      <rect x="170" y="176" width="64" height="6" rx="3" fill="#ffffff" />
      <rect x="146" y="198" width="112" height="22" rx="6" fill="#ffffff" stroke="#0b4f6c" strokeWidth="2" />
      <rect x="170" y="206" width="64" height="6" rx="3" fill="#0b4f6c" />
      <g fill="#16202a">
        <rect x="176" y="234" width="52" height="52" rx="4" fill="none" stroke="#16202a" strokeWidth="3" />
        <rect x="184" y="242" width="12" height="12" />
        <rect x="208" y="242" width="12" height="12" />
        <rect x="184" y="266" width="12" height="12" />
        <rect x="204" y="262" width="6" height="6" />
        <rect x="214" y="272" width="6" height="6" />
      </g>
    </svg>
  );
}
