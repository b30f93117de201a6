import 'reflect-metadata';
import { bootstrapService } from '@bahi/service-kit';
import { AppModule } from './app.module';

bootstrapService(AppModule, { service: 'reports' }).catch(() => process.exit(1));
