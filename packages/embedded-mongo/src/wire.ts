/**
 * MongoDB wire protocol framing: OP_MSG (every command of current drivers) and the legacy
 * OP_QUERY handshake (`isMaster` against `admin.$cmd`), answered with OP_MSG / OP_REPLY.
 */
import { BSON } from 'bson';
import { MongoError } from './errors';
import { DESERIALIZE_OPTIONS, SERIALIZE_OPTIONS } from './storage';
import type { Doc } from './values';

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

function readCString(buf: Buffer, offset: number): [string, number] {
  const end = buf.indexOf(0, offset);
  if (end < 0) throw new MongoError('FailedToParse', 'unterminated string in message');
  return [buf.toString('utf8', offset, end), end + 1];
}

function readDoc(buf: Buffer, offset: number): [Doc, number] {
  if (offset + 4 > buf.length) throw new MongoError('FailedToParse', 'truncated document in message');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > buf.length) throw new MongoError('FailedToParse', 'invalid document size in message');
  const doc = BSON.deserialize(buf.subarray(offset, offset + size), DESERIALIZE_OPTIONS) as Doc;
  return [doc, offset + size];
}

/** Parses one complete message (header included). */
export function parseMessage(msg: Buffer): Request {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = msg.readUInt32LE(16);
    const end = flags & CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
    let offset = 20;
    let body: Doc | null = null;
    const sequences: Array<[string, Doc[]]> = [];
    while (offset < end) {
      const kind = msg[offset++];
      if (kind === 0) {
        [body, offset] = readDoc(msg, offset);
      } else if (kind === 1) {
        const size = msg.readInt32LE(offset);
        const seqEnd = offset + size;
        const [id, start] = readCString(msg, offset + 4);
        let p = start;
        const docs: Doc[] = [];
        while (p < seqEnd) {
          let d: Doc;
          [d, p] = readDoc(msg, p);
          docs.push(d);
        }
        sequences.push([id, docs]);
        offset = seqEnd;
      } else {
        throw new MongoError('FailedToParse', `unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new MongoError('FailedToParse', 'OP_MSG without a body section');
    for (const [id, docs] of sequences) body[id] = docs;
    return { requestId, opCode, body, moreToCome: (flags & MORE_TO_COME) !== 0, exhaustAllowed: (flags & EXHAUST_ALLOWED) !== 0 };
  }
  if (opCode === OP_QUERY) {
    const [ns, afterNs] = readCString(msg, 20);
    // skip numberToSkip and numberToReturn
    let [query] = readDoc(msg, afterNs + 8);
    if (!ns.endsWith('.$cmd')) throw new MongoError('NotImplemented', 'OP_QUERY is only supported for commands');
    if (query.$query && typeof query.$query === 'object') query = query.$query as Doc;
    const body: Doc = { ...query, $db: ns.slice(0, -'.$cmd'.length) };
    return { requestId, opCode, body, moreToCome: false, exhaustAllowed: false };
  }
  throw new MongoError('NotImplemented', `unsupported wire protocol opcode ${opCode}`);
}

/** If `buf` starts with a complete message, its length; otherwise 0. */
export function completeLength(buf: Buffer): number {
  if (buf.length < 4) return 0;
  const len = buf.readInt32LE(0);
  return buf.length >= len ? len : 0;
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

export function encodeReply(req: Request, doc: Doc): Buffer {
  const body = BSON.serialize(doc, SERIALIZE_OPTIONS);
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
