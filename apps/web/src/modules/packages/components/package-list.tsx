import { usePlans } from '../hooks/use-plans';
import { MEMBERSHIP_TIERS, tierPrice } from '../tiers';

/** The four tiers side by side (stacked on phones); each one adds to the one before it. */
export function PackageList({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const plans = usePlans();
  return (
    <ul className="package-list">
      {MEMBERSHIP_TIERS.map((tier, index) => {
        const previous = index > 0 ? MEMBERSHIP_TIERS[index - 1] : undefined;
        const price = tierPrice(tier.name, plans);
        return (
          <li key={tier.id} className={`package package--${tier.id}`}>
            <Heading className="package__name">{tier.name}</Heading>
            {price === null ? null : <p className="package__price">{price}</p>}
            <p className="package__summary">{tier.summary}</p>
            <p className="package__adds-title">{previous ? `Everything in ${previous.name}, plus:` : 'Includes:'}</p>
            <ul className="package__adds">
              {tier.adds.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
