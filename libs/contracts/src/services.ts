export const ServiceNames = ['identity', 'profiles', 'teams', 'orders', 'payments', 'notifications'] as const;
export type ServiceName = (typeof ServiceNames)[number];
