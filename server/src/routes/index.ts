// Every call of the API: generated ones from the descriptors, then the hand-written ones.
import type { FastifyInstance } from 'fastify';
import { RESOURCES } from '../../../schemas/index';
import auditLogRoutes from './auditLog';
import authRoutes from './auth';
import { registerBulkDelete } from './bulkDelete';
import dashboardRoutes from './dashboard';
import healthRoutes from './health';
import { registerCrud } from './crud';
import exportRoutes from './export';
import fullTextRoutes from './fullText';
import memberRoutes from './members';
import multipartRoutes from './multipart';
import ownPasswordRoutes from './ownPassword';
import uploadRoutes from './upload';
import usewebRoutes from './useweb';
import videoRoutes from './video';

export default async function routes(app: FastifyInstance) {
  // A descriptor's `handWritten` calls are registered by their own modules below.
  for (const descriptor of RESOURCES) {
    registerCrud(app, descriptor);
    registerBulkDelete(app, descriptor);
  }
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(ownPasswordRoutes);
  await app.register(memberRoutes);
  await app.register(videoRoutes);
  await app.register(usewebRoutes);
  await app.register(uploadRoutes);
  await app.register(multipartRoutes);
  await app.register(auditLogRoutes);
  await app.register(dashboardRoutes);
  await app.register(fullTextRoutes);
  // Beside every list call, after the hand-written ones have said what their lists add.
  await app.register(exportRoutes);
}
