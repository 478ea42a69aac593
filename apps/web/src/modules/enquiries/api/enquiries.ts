import { HttpRoutes, type CallBackEnquiry, type MessageEnquiry, type QuoteEnquiry } from '@digicard/contracts';
import { postJson } from '../../api/http';

/** POST /api/enquiries/call-back: the footer form "Get things started". */
export function submitCallBackEnquiry(body: CallBackEnquiry) {
  return postJson(HttpRoutes.submitCallBackEnquiry, body);
}

/** POST /api/enquiries/message: the contact page form "Let us contact you". */
export function submitMessageEnquiry(body: MessageEnquiry) {
  return postJson(HttpRoutes.submitMessageEnquiry, body);
}

/** POST /api/enquiries/quote: DigiPlatinum's "Request a quote". */
export function submitQuoteEnquiry(body: QuoteEnquiry) {
  return postJson(HttpRoutes.submitQuoteEnquiry, body);
}
