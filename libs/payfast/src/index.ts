export { pfEncode, md5Hex, type Fields } from './encode.js';
export { PAYFAST_FIELD_ORDER, type PayFastField, signature, signatureString } from './signature.js';
export {
  buildPaymentRequest,
  formatCents,
  PAYFAST_PROCESS_URL,
  PAYFAST_SANDBOX_PROCESS_URL,
  PayFastInputError,
  paymentRequestInputSchema,
  type PaymentRequest,
  type PaymentRequestInput,
} from './request.js';
export {
  amountMatches,
  type FetchLike,
  isPayFastAddress,
  itnSignatureString,
  merchantMatches,
  validateWithPayFast,
  type ValidateResult,
  verifyItnSignature,
} from './itn.js';
export { PAYFAST_PUBLISHED_RANGES, PayFastSourceRangesSchema } from './sources.js';
export { type ApiHeaders, type ApiParams, apiSignature, apiSignatureString } from './api.js';
