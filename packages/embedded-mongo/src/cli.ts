#!/usr/bin/env node
/**
 * embedded-mongo [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--fsync] [--advertise-host NAME] [--users FILE]
 *                [--setParameter transactionLifetimeLimitSeconds=N]
 * Runs the embedded MongoDB-compatible server until SIGINT/SIGTERM. Without --dbpath the data
 * lives in memory only; with --users (stored SCRAM-SHA-256 users) every client must authenticate.
 * embedded-mongo hash-user NAME ROLE[@DB]... reads a password on stdin and prints the user entry.
 */
import { storedUser, type Role } from './commands/auth';
import { EmbeddedMongo } from './server';

const USAGE = 'usage: embedded-mongo [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--fsync] [--advertise-host NAME] [--users FILE] [--setParameter transactionLifetimeLimitSeconds=N]\n       embedded-mongo hash-user NAME root|readWrite@DB ... < password\n';

interface Args {
  port?: number;
  host?: string;
  advertisedHost?: string;
  dbPath?: string;
  fsync?: boolean;
  usersFile?: string;
  transactionLifetimeSeconds?: number;
}

function parseArgs(argv: string[]): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port':
      case '-p': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${argv[i]}`);
        out.port = port;
        break;
      }
      case '--host':
      case '--bind_ip':
        out.host = value();
        break;
      case '--advertise-host':
        out.advertisedHost = value();
        break;
      case '--dbpath':
      case '--dbPath':
        out.dbPath = value();
        break;
      case '--fsync':
        out.fsync = true;
        break;
      case '--users':
      case '--users-file':
        out.usersFile = value();
        break;
      case '--setParameter': {
        // mongod's own flag: an open transaction older than this is aborted (default 60), which
        // bounds how long a crashed client's transaction holds its documents.
        const [name, raw] = (value() ?? '').split('=');
        const seconds = Number(raw);
        if (name !== 'transactionLifetimeLimitSeconds') throw new Error(`unsupported parameter: ${name} (only transactionLifetimeLimitSeconds)`);
        if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`transactionLifetimeLimitSeconds must be a whole number of seconds, got '${raw}'`);
        out.transactionLifetimeSeconds = seconds;
        break;
      }
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option: ${argv[i]}`);
    }
  }
  return out;
}

/** Prints a users-file entry for a password read on stdin, so the file never holds the password. */
async function hashUser(argv: string[]): Promise<void> {
  const [user, ...roleArgs] = argv;
  if (!user || !roleArgs.length) throw new Error(`hash-user needs a name and at least one role\n${USAGE}`);
  const roles = roleArgs.map((r): Role => {
    const [role, db] = r.split('@', 2);
    return { role: role as Role['role'], db: db ?? 'admin' };
  });
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  process.stdout.write(`${JSON.stringify(storedUser({ user, password, roles }), null, 2)}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'hash-user') return hashUser(process.argv.slice(3));
  const args = parseArgs(process.argv.slice(2));
  const server = await EmbeddedMongo.start({
    port: args.port ?? (process.env.PORT ? Number(process.env.PORT) : 27017),
    host: args.host,
    advertisedHost: args.advertisedHost,
    dbPath: args.dbPath,
    fsync: args.fsync,
    usersFile: args.usersFile,
    transactionLifetimeSeconds: args.transactionLifetimeSeconds,
  });
  process.stdout.write(
    `embedded MongoDB listening on ${server.uri}${server.dbPath ? ` (data in ${server.dbPath})` : ' (in memory)'}${server.authEnabled ? ', authentication required' : ''}\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping embedded MongoDB\n`);
    server.stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

// Safety net: a bug reached from one connection is logged, and every other client keeps its server.
// (Each known cause is fixed where it arises; this only keeps an unknown one from stopping the process.)
process.on('uncaughtException', (err) => {
  process.stderr.write(`embedded-mongo: uncaught exception (still serving): ${err.stack ?? err}\n`);
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`embedded-mongo: unhandled rejection (still serving): ${(reason as Error)?.stack ?? String(reason)}\n`);
});

main().catch((err) => {
  process.stderr.write(`embedded-mongo: ${(err as Error).message}\n`);
  process.exit(1);
});
