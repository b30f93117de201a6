export { ReorderController } from './reorder.controller';
export { ReorderService } from './reorder.service';
