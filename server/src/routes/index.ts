// Every call of the API: generated ones from the descriptors, then the hand-written ones.
import type { FastifyInstance } from 'fastify';
import { RESOURCES } from '../../../schemas/index';
import auditLogRoutes from './auditLog';
import authRoutes from './auth';
import healthRoutes from './health';
import { registerCrud } from './crud';
import memberRoutes from './members';
import multipartRoutes from './multipart';
import ownPasswordRoutes from './ownPassword';
import uploadRoutes from './upload';
import usewebRoutes from './useweb';
import videoRoutes from './video';

/** Calls of the descriptors that are written by hand (service/call). */
const HAND_WRITTEN = new Set([
  'Ajax/AddVideoMessage',
  'Ajax/DelVideoMessage',
  'Ajax/GetMemberListInAdmin',
  'Ajax/GetSingleMemberInAdmin',
  'Ajax/AddMember',
  'Ajax/UpdateMember',
  'Ajax/DelMember',
  'Ajax/GetAuditLogListInAdmin',
]);

export default async function routes(app: FastifyInstance) {
  for (const descriptor of RESOURCES) registerCrud(app, descriptor, HAND_WRITTEN);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(ownPasswordRoutes);
  await app.register(memberRoutes);
  await app.register(videoRoutes);
  await app.register(usewebRoutes);
  await app.register(uploadRoutes);
  await app.register(multipartRoutes);
  await app.register(auditLogRoutes);
}
