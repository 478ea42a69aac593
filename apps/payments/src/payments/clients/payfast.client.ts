import { Inject, Injectable } from '@nestjs/common';
import { apiSignature, buildPaymentRequest, validateWithPayFast, type PaymentRequestInput, type ValidateResult } from '@digicard/payfast';
import { WebRoutes } from '@digicard/contracts';
import { saTimestamp } from '@digicard/domain';
import { CONFIG } from '@digicard/server';
import type { Config } from '../../config.js';

export type ApiAnswer = { ok: boolean; status: number; detail: string };
export type RequestDetails = Omit<
  PaymentRequestInput,
  'merchantId' | 'merchantKey' | 'passphrase' | 'notifyUrl' | 'returnUrl' | 'cancelUrl'
>;

/** PayFast as configured: signed process-page URLs, the validate call and the subscriptions API. */
@Injectable()
export class PayFastClient {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  get hasPassphrase(): boolean {
    return this.config.PAYFAST_PASSPHRASE !== undefined;
  }

  /**
   * The process page with the signed request in its query string (fields in PayFast's documented order). The buyer
   * comes back to `returnPath`: the card-order confirmation unless told otherwise.
   */
  processUrl(details: RequestDetails, cancelPath: string, returnPath: string = WebRoutes.thankYou): string {
    const base = this.config.PUBLIC_URL.replace(/\/+$/, '');
    const request = buildPaymentRequest({
      merchantId: this.config.PAYFAST_MERCHANT_ID,
      merchantKey: this.config.PAYFAST_MERCHANT_KEY,
      ...(this.config.PAYFAST_PASSPHRASE ? { passphrase: this.config.PAYFAST_PASSPHRASE } : {}),
      returnUrl: `${base}${returnPath}`,
      cancelUrl: `${base}${cancelPath}`,
      notifyUrl: this.config.PAYFAST_NOTIFY_URL ?? `${base}/api/payfast/notify`,
      ...details,
    });
    return request.url(this.config.PAYFAST_PROCESS_URL);
  }

  /** PayFast's server-to-server confirmation of an ITN; 'ERROR' on a failure or time-out. */
  validate(pairs: ReadonlyArray<readonly [string, string]>): Promise<ValidateResult> {
    return validateWithPayFast(
      pairs,
      this.config.PAYFAST_VALIDATE_URL,
      (url, init) => fetch(url, init),
      this.config.PAYFAST_VALIDATE_TIMEOUT_MS,
    );
  }

  /** `PUT /subscriptions/{token}/cancel`; true when PayFast says it is done. */
  cancelSubscription(token: string, now: Date): Promise<ApiAnswer> {
    return this.callSubscriptions('PUT', token, 'cancel', {}, now);
  }

  /** `PATCH /subscriptions/{token}/update` with the new recurring `amount` in cents; true when PayFast says it is done. */
  updateSubscriptionAmount(token: string, amountCents: number, now: Date): Promise<ApiAnswer> {
    return this.callSubscriptions('PATCH', token, 'update', { amount: String(amountCents) }, now);
  }

  /** One subscriptions API call: the body fields (form-encoded) are signed with the headers and the passphrase. */
  private async callSubscriptions(
    method: string,
    token: string,
    action: string,
    body: Record<string, string>,
    now: Date,
  ): Promise<ApiAnswer> {
    const headers = { 'merchant-id': this.config.PAYFAST_MERCHANT_ID, version: 'v1', timestamp: saTimestamp(now) };
    const signature = apiSignature(headers, body, this.config.PAYFAST_PASSPHRASE);
    // The sandbox is chosen by `?testing=true`, which is left out of the signature (PayFast API reference).
    const url = `${this.config.PAYFAST_API_URL.replace(/\/+$/, '')}/subscriptions/${encodeURIComponent(token)}/${action}${this.config.PAYFAST_SANDBOX ? '?testing=true' : ''}`;
    const hasBody = Object.keys(body).length > 0;
    try {
      const res = await fetch(url, {
        method,
        headers: { ...headers, signature, ...(hasBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(hasBody ? { body: new URLSearchParams(body).toString() } : {}),
        signal: AbortSignal.timeout(this.config.PAYFAST_VALIDATE_TIMEOUT_MS),
      });
      const detail = await res.text();
      return { ok: res.ok, status: res.status, detail: detail.slice(0, 500) };
    } catch (error) {
      return { ok: false, status: 0, detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
