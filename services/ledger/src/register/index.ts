export { RegisterController, RegisterHandlers } from './register.controller';
export { RegisterSessionDoc, RegisterSessionSchema } from './register.schema';
export { RegisterService } from './register.service';
