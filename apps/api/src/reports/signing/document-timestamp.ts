/**
 * @signpdf/placeholder-plain writes every signature dictionary as `/Type /Sig` with the signer's fields (/Reason,
 * /M, /Name, /Location, /ContactInfo, /Prop_Build). A document timestamp (ISO 32000-2 §12.8.5) is `/Type
 * /DocTimeStamp` and has none of them: its time is the token's. This rewrites the placeholder's dictionary in place,
 * keeping its length (spaces instead of the dropped fields), so the update's cross-reference offsets stay right.
 */
const SIGNATURE_HEAD = '/Type /Sig\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.RFC3161\n';
const TIMESTAMP_HEAD = '/Type /DocTimeStamp\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.RFC3161\n';

export function asDocumentTimestamp(withPlaceholder: Buffer): Buffer {
  const text = withPlaceholder.toString('latin1');
  const head = text.lastIndexOf(SIGNATURE_HEAD);
  if (head < 0) throw new Error('no ETSI.RFC3161 placeholder to turn into a document timestamp');
  const contents = text.indexOf('/Contents <', head);
  const contentsEnd = text.indexOf('>\n', contents) + 2;
  const end = text.indexOf('>>\nendobj', contentsEnd);
  if (contents < 0 || contentsEnd < 2 || end < 0) throw new Error('unexpected placeholder layout');
  const original = text.slice(head, end);
  const kept = `${TIMESTAMP_HEAD}${text.slice(head + SIGNATURE_HEAD.length, contentsEnd)}`;
  if (kept.length > original.length) throw new Error('no room to write the document timestamp dictionary');
  const rewritten = kept + ' '.repeat(original.length - kept.length);
  return Buffer.concat([withPlaceholder.subarray(0, head), Buffer.from(rewritten, 'latin1'), withPlaceholder.subarray(end)]);
}
