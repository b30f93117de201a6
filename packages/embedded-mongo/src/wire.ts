/**
 * MongoDB wire protocol framing: OP_MSG (every command of current drivers) and the legacy
 * OP_QUERY handshake (`isMaster` against `admin.$cmd`), answered with OP_MSG / OP_REPLY.
 */
import { BSON } from 'bson';
import { MongoError } from './errors';
import { MAX_MESSAGE_SIZE } from './commands/server';
import { EncodedBatch } from './cursors';
import { DESERIALIZE_OPTIONS, SERIALIZE_OPTIONS } from './storage';
import { isPlainObject, type Doc } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;
const EXHAUST_ALLOWED = 1 << 16;

export interface Request {
  requestId: number;
  opCode: number;
  /** The command document (document sequences folded in as array fields). */
  body: Doc;
  /** The client expects no reply (OP_MSG moreToCome, e.g. unacknowledged writes). */
  moreToCome: boolean;
  /** The client accepts a stream of replies (awaitable hello of the server monitor). */
  exhaustAllowed: boolean;
}

/** Bytes a message may have, header included: MongoDB's `maxMessageSizeBytes`. */
export const MAX_MESSAGE_BYTES = MAX_MESSAGE_SIZE;

/** Flag bits 0-15 are "required": a receiver must refuse a message with one it does not know. */
const KNOWN_REQUIRED_FLAGS = CHECKSUM_PRESENT | MORE_TO_COME;

/**
 * A message that cannot be run. With `replyTo` its framing was intact, so it is answered with
 * `error` in the format the client reads; without it the connection is closed.
 */
export class BadMessage extends Error {
  constructor(
    readonly error: MongoError,
    readonly replyTo: Pick<Request, 'requestId' | 'opCode' | 'moreToCome'> | null,
  ) {
    super(error.message);
    this.name = 'BadMessage';
  }
}

function fail(message: string): never {
  throw new MongoError('FailedToParse', message);
}

/** A NUL-terminated string within [offset, end). */
function readCString(buf: Buffer, offset: number, end: number): [string, number] {
  const nul = buf.indexOf(0, offset);
  if (nul < 0 || nul >= end) fail('unterminated string in message');
  return [buf.toString('utf8', offset, nul), nul + 1];
}

/** One BSON document within [offset, end). */
function readDoc(buf: Buffer, offset: number, end: number): [Doc, number] {
  if (offset + 4 > end) fail('truncated document in message');
  const size = buf.readInt32LE(offset);
  if (size < 5 || size > end - offset) fail('invalid document size in message');
  let doc: Doc;
  try {
    doc = BSON.deserialize(buf.subarray(offset, offset + size), DESERIALIZE_OPTIONS) as Doc;
  } catch (err) {
    fail(`invalid BSON in message: ${(err as Error).message}`);
  }
  return [doc, offset + size];
}

function parseOpMsg(msg: Buffer, requestId: number): Request {
  const flags = msg.readUInt32LE(16);
  const unknown = flags & 0xffff & ~KNOWN_REQUIRED_FLAGS;
  if (unknown) fail(`OP_MSG has unrecognised required flag bits ${unknown}`);
  const end = flags & CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
  let offset = 20;
  let body: Doc | null = null;
  const sequences: Array<[string, Doc[]]> = [];
  while (offset < end) {
    const kind = msg[offset++];
    if (kind === 0) {
      if (body) fail('OP_MSG with more than one body section');
      [body, offset] = readDoc(msg, offset, end);
    } else if (kind === 1) {
      if (offset + 4 > end) fail('truncated document sequence in OP_MSG');
      const size = msg.readInt32LE(offset);
      // the size counts itself and a non-empty identifier; anything smaller never advances
      if (size < 6 || size > end - offset) fail(`invalid document sequence size ${size} in OP_MSG`);
      const seqEnd = offset + size;
      const [id, start] = readCString(msg, offset + 4, seqEnd);
      if (!id) fail('document sequence without an identifier in OP_MSG');
      let p = start;
      const docs: Doc[] = [];
      while (p < seqEnd) {
        let d: Doc;
        [d, p] = readDoc(msg, p, seqEnd);
        docs.push(d);
      }
      sequences.push([id, docs]);
      offset = seqEnd;
    } else {
      fail(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) fail('OP_MSG without a body section');
  for (const [id, docs] of sequences) {
    if (Object.prototype.hasOwnProperty.call(body, id)) fail(`duplicate field '${id}' in OP_MSG body and document sequence`);
    body[id] = docs;
  }
  return { requestId, opCode: OP_MSG, body, moreToCome: (flags & MORE_TO_COME) !== 0, exhaustAllowed: (flags & EXHAUST_ALLOWED) !== 0 };
}

function parseOpQuery(msg: Buffer, requestId: number): Request {
  const [ns, afterNs] = readCString(msg, 20, msg.length);
  // skip numberToSkip and numberToReturn
  if (afterNs + 8 > msg.length) fail('truncated OP_QUERY');
  let [query] = readDoc(msg, afterNs + 8, msg.length);
  if (!ns.endsWith('.$cmd') || ns.length === '.$cmd'.length) throw new MongoError('NotImplemented', 'OP_QUERY is only supported for commands');
  if (isPlainObject(query.$query)) query = query.$query;
  const body: Doc = { ...query, $db: ns.slice(0, -'.$cmd'.length) };
  return { requestId, opCode: OP_QUERY, body, moreToCome: false, exhaustAllowed: false };
}

/**
 * Parses one complete message (header included, `msg.length` its declared length). Throws
 * BadMessage for anything that is not a runnable OP_MSG or OP_QUERY command.
 */
export function parseMessage(msg: Buffer): Request {
  if (msg.length < 16 || msg.readInt32LE(0) !== msg.length) {
    throw new BadMessage(new MongoError('FailedToParse', 'message length does not match its header'), null);
  }
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  const answerAs = (op: number, moreToCome = false) => ({ requestId, opCode: op, moreToCome });
  try {
    if (opCode === OP_MSG) {
      if (msg.length < 21) fail('OP_MSG too short for flags and a section');
      return parseOpMsg(msg, requestId);
    }
    if (opCode === OP_QUERY) return parseOpQuery(msg, requestId);
  } catch (err) {
    const moreToCome = opCode === OP_MSG && msg.length >= 20 && (msg.readUInt32LE(16) & MORE_TO_COME) !== 0;
    throw new BadMessage(err instanceof MongoError ? err : new MongoError('FailedToParse', String(err)), answerAs(opCode, moreToCome));
  }
  if (opCode === OP_COMPRESSED) {
    // Compression is never advertised, so a client must not send it; answer in the format it awaits.
    const original = msg.length >= 20 ? msg.readInt32LE(16) : OP_MSG;
    const error = new MongoError('NotImplemented', 'OP_COMPRESSED is not supported: this server does not negotiate compression');
    throw new BadMessage(error, original === OP_QUERY ? answerAs(OP_QUERY) : answerAs(OP_MSG));
  }
  throw new BadMessage(new MongoError('NotImplemented', `unsupported wire protocol opcode ${opCode}`), null);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.allocUnsafe(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** The requestID an encoded reply carries (a streamed reply answers the previous one). */
export function replyId(reply: Buffer): number {
  return reply.readInt32LE(4);
}

/** An OP_MSG reply; `moreToCome` marks one of a stream of replies to one exhaust request. */
export function encodeStreamReply(responseTo: number, doc: Doc, moreToCome: boolean): Buffer {
  const body = BSON.serialize(doc, SERIALIZE_OPTIONS);
  const flags = Buffer.alloc(5);
  if (moreToCome) flags.writeUInt32LE(MORE_TO_COME, 0);
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), flags, body]);
}

/** A `{ type, name }` element header. */
function elementHead(type: number, name: string): Buffer {
  const head = Buffer.allocUnsafe(2 + Buffer.byteLength(name));
  head[0] = type;
  head.write(name, 1, 'utf8');
  head[head.length - 1] = 0;
  return head;
}

/** The elements of a serialized document (without its length and terminating 0). */
function elementsOf(doc: Doc): Uint8Array {
  const bytes = BSON.serialize(doc, SERIALIZE_OPTIONS);
  return bytes.subarray(4, bytes.length - 1);
}

function wrapDocument(parts: Uint8Array[]): Buffer {
  const size = Buffer.allocUnsafe(4);
  const out = Buffer.concat([size, ...parts, Buffer.alloc(1)]);
  out.writeInt32LE(out.length, 0);
  return out;
}

/**
 * A reply's BSON. A cursor batch taken with its documents' BSON (EncodedBatch) is copied in as
 * it is, in the field order of the reply: `cursor` first with its batch first, then the rest.
 */
export function encodeBody(doc: Doc): Uint8Array {
  const cursor = doc.cursor;
  const keys = Object.keys(doc);
  if (!isPlainObject(cursor) || keys[0] !== 'cursor') return BSON.serialize(doc, SERIALIZE_OPTIONS);
  const [batchKey, ...cursorKeys] = Object.keys(cursor);
  const batch = cursor[batchKey];
  if ((batchKey !== 'firstBatch' && batchKey !== 'nextBatch') || !(batch instanceof EncodedBatch) || batch.bson.length !== batch.length) {
    return BSON.serialize(doc, SERIALIZE_OPTIONS);
  }
  const items: Uint8Array[] = [];
  batch.bson.forEach((bson, i) => items.push(elementHead(0x03, String(i)), bson));
  const rest: Doc = {};
  for (const k of cursorKeys) rest[k] = cursor[k];
  const others: Doc = {};
  for (const k of keys.slice(1)) others[k] = doc[k];
  const cursorDoc = wrapDocument([elementHead(0x04, batchKey), wrapDocument(items), elementsOf(rest)]);
  return wrapDocument([elementHead(0x03, 'cursor'), cursorDoc, elementsOf(others)]);
}

export function encodeReply(req: Pick<Request, 'requestId' | 'opCode'>, doc: Doc): Buffer {
  const body = encodeBody(doc);
  if (req.opCode === OP_QUERY) {
    const fixed = Buffer.alloc(20);
    fixed.writeInt32LE(0, 0); // responseFlags
    fixed.writeBigInt64LE(0n, 4); // cursorID
    fixed.writeInt32LE(0, 12); // startingFrom
    fixed.writeInt32LE(1, 16); // numberReturned
    return Buffer.concat([header(16 + 20 + body.length, req.requestId, OP_REPLY), fixed, body]);
  }
  const flags = Buffer.alloc(5); // flagBits (4) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, req.requestId, OP_MSG), flags, body]);
}
