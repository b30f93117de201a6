#!/usr/bin/env node
/**
 * embedded-mongo [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--fsync] [--advertise-host NAME]
 * Runs the embedded MongoDB-compatible server until SIGINT/SIGTERM. Without --dbpath the data
 * lives in memory only.
 */
import { EmbeddedMongo } from './server';

interface Args {
  port?: number;
  host?: string;
  advertisedHost?: string;
  dbPath?: string;
  fsync?: boolean;
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
      case '--help':
      case '-h':
        process.stdout.write('usage: embedded-mongo [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--fsync] [--advertise-host NAME]\n');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option: ${argv[i]}`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const server = await EmbeddedMongo.start({
    port: args.port ?? (process.env.PORT ? Number(process.env.PORT) : 27017),
    host: args.host,
    advertisedHost: args.advertisedHost,
    dbPath: args.dbPath,
    fsync: args.fsync,
  });
  process.stdout.write(`embedded MongoDB listening on ${server.uri}${server.dbPath ? ` (data in ${server.dbPath})` : ' (in memory)'}\n`);
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

main().catch((err) => {
  process.stderr.write(`embedded-mongo: ${(err as Error).message}\n`);
  process.exit(1);
});
