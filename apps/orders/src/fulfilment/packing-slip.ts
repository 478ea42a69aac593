import PDFDocument from 'pdfkit';
import type { PrintOrder } from '@digicard/contracts';
import { pdfBytes } from '../proofs/render-proof.js';

/** The packing slip that goes in the box: A5, the reference, who it is for, what is in it, each card's serial. */
export async function renderPackingSlip(order: PrintOrder): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A5', margin: 36, info: { Title: `Packing slip ${order.reference}` } });
  doc.font('Helvetica-Bold').fontSize(18).text('DigiCard packing slip');
  doc.moveDown(0.5).font('Helvetica').fontSize(11).text(`Order ${order.reference}`);
  if (order.customer) doc.text(`For ${order.customer.name} (digicard profile: ${order.customer.username})`);
  if (order.paidAt) doc.text(`Paid ${order.paidAt.slice(0, 10)}`);
  if (order.shipment) doc.text(`Courier ${order.shipment.courier}, tracking ${order.shipment.trackingNumber}`);
  doc.moveDown().font('Helvetica-Bold').text('In this parcel');
  doc.font('Helvetica');
  for (const line of order.lines) doc.text(`${line.quantity} x ${line.name}${line.colour ? `, ${line.colour}` : ''}`);
  doc.moveDown().font('Helvetica-Bold').text('Cards');
  doc.font('Helvetica');
  for (const card of order.cards) doc.text(`${card.serial}  ${card.material} ${card.colour}  NFC ${card.nfcUid ?? '(not recorded)'}`);
  doc
    .moveDown()
    .fontSize(9)
    .fillColor('#555555')
    .text(
      'Tap your card on a phone, or scan its QR code: it opens your DigiCard profile. Lost a card? Disable it in your dashboard under Orders.',
    );
  return pdfBytes(doc);
}
