export { ofrepRoutes } from './routes.js';
export { toFlagmountContext, InvalidContextError } from './context.js';
