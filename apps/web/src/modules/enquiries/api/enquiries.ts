import { HttpRoutes, type CallBackEnquiry, type MessageEnquiry } from '@digicard/contracts';
import { postJson } from '../../api/http';

/** POST /api/enquiries/call-back: the footer form "Get things started". */
export function submitCallBackEnquiry(body: CallBackEnquiry) {
  return postJson(HttpRoutes.submitCallBackEnquiry, body);
}

/** POST /api/enquiries/message: the contact page form "Let us contact you". */
export function submitMessageEnquiry(body: MessageEnquiry) {
  return postJson(HttpRoutes.submitMessageEnquiry, body);
}
