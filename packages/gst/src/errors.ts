/** Bad input to a GST rule: the message is a sentence a service can answer with a 4xx. */
export class GstError extends Error {
  override name = 'GstError';
}
