import { createServer } from 'node:http';
import { flagmountExpress } from '@flagmount/express';
import express from 'express';
import { createExampleFlagmount, demo, MAX_HEADER_SIZE, PREFIX, printStartup, readConfig, serve } from '../../shared/src/example.js';

const config = readConfig();
const instance = await createExampleFlagmount(config);

const app = express();
// Flagmount first: it reads its own bodies, so the host's parser below never pre-empts its error answers.
app.use(PREFIX, flagmountExpress(instance));
app.use(express.json());
app.get('/', (_req, res) => {
  res.type('html').send(demo.homePage('Express'));
});
app.get('/api/checkout', (req, res) => {
  res.json(demo.checkout(instance, typeof req.query['userId'] === 'string' ? req.query['userId'] : undefined));
});

const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app);
const port = await serve({ server }, instance, config.port);
printStartup(instance, 'Express', config, port);
