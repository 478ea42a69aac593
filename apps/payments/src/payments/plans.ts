/** The tiers and their monthly prices live in libs/domain (one home); charged and served from here. */
export { Plans, priceOf } from '@digicard/domain';
