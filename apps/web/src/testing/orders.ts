/**
 * An order as `GET /api/orders` answers it, for the web app's unit tests: one Gold card special (R999, 12 months of
 * DigiGold), awaiting payment unless `status` says otherwise.
 */
export const sampleOrder = (status = 'awaiting-payment', id = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98', reference = 'DC-7K3M9Q') => ({
  id,
  reference,
  status,
  lines: [
    {
      itemId: 'gold-card',
      kind: 'special',
      name: 'Gold card',
      quantity: 1,
      unitPriceCents: 99900,
      lineTotalCents: 99900,
      includedGoldMonths: 12,
      colour: 'Black',
    },
  ],
  totalCents: 99900,
  createdAt: '2026-11-01T08:00:00.000Z',
  paidAt: status === 'awaiting-payment' ? null : '2026-11-01T08:05:00.000Z',
});
