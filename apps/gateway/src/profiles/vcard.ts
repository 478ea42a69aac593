// The builder is shared with notifications (Exchange Contact emails the same card): it lives in libs/server.
export { buildVcard, escapeVcard, foldLine, vcardFileName, type VcardOptions } from '@digicard/server';
