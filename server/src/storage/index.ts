// Picks the storage driver named by STORAGE (docs/storage.md): files on this server's disk, or a bucket.
import type { Config } from '../config';
import { LocalStorage } from './local';
import type { StorageDriver } from './types';

/**
 * `secret` signs local upload URLs; the s3 driver signs with the bucket's credentials instead.
 * The part size of uploads in parts comes from the configuration (UPLOAD_PART_SIZE).
 */
export async function createStorage(config: Config, secret: Buffer): Promise<StorageDriver> {
  const partSize = config.uploadPartSize;
  if (config.storage === 's3') {
    if (!config.s3) throw new Error('STORAGE=s3 needs S3_BUCKET (and the other S3_* variables)');
    // Loaded only when used: the AWS SDK takes some 20 MB that a server on local disk never needs.
    const { S3Storage } = await import('./s3');
    return new S3Storage(config.s3, { partSize });
  }
  return new LocalStorage(config.dataDir, secret, { partSize });
}

export { LocalStorage } from './local';
export { prepareUpload, POLICIES, UPLOAD_MODULES, type PreparedUpload, type UploadInput } from './policies';
export { RejectedUpload, partCount, partSizeFor, expectedPartSize } from './multipart';
export type { CompleteRequest, MultipartRef, PartRequest, SignRequest, SignedPart, StorageDriver, UploadedPart } from './types';
