export { buildOpenApiDocument } from './build-document.js';
export { documented, operationDocOf, type OperationDoc, type ResponseDoc } from './annotations.js';
export { openApiRoute } from './route.js';
