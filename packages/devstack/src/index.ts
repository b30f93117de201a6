export { freePort, assertPortFree, nextFreePort } from './ports';
export { startNats, findNatsServer, natsConfig, natsClusterSize, writeNatsConfig, type NatsClusterNode, type NatsHandle, type NatsUser } from './nats';
export { startMongo, mongoCredentials, mongoUriFor, type MongoHandle, type MongoCredentials, type MongoLogin } from './mongo';
export { startStack, builtServices, StackServices, type Stack, type StackOptions, type StackService } from './stack';
export { DEFAULT_RESTART, type LogMode, type ProcessStatus, type RestartPolicy } from './processes';
export {
  createBackup,
  verifyBackup,
  restoreBackup,
  readManifest,
  listBackups,
  dataHolder,
  BackupError,
  type BackupOptions,
  type BackupResult,
  type Manifest,
  type Sidecar,
  type Verification,
} from './backup';
export { retention, isoWeekKey, type RetentionItem } from './retention';
export { backupSettings, nextBackupAt, BackupService, STALE_AFTER_HOURS, type BackupSettings, type BackupListReply, type BackupWarning } from './backup-schedule';
export { startBackupAgent, type BackupAgent } from './backup-agent';
