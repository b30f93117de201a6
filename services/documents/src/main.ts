import 'reflect-metadata';
import { bootstrapService } from '@bahi/service-kit';
import { AppModule } from './app.module';
import { migrations } from './migrations';

bootstrapService(AppModule, { service: 'documents', migrations }).catch(() => process.exit(1));
