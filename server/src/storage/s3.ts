// The `s3` driver: AWS S3 or any S3-compatible service (Aliyun OSS, MinIO…), through the AWS SDK
// for JavaScript v3. The browser sends the bytes straight to the bucket with a presigned URL.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import { publicBaseUrl } from './s3Urls';

export { publicBaseUrl };
import { ApiError, badRequest, notFound } from '../errors';
import { bucketFault } from '../http/faults';
import { keysAfterPrefixes } from './keys';
import { MAGIC_HEAD_BYTES } from './magic';
import { DEFAULT_PART_SIZE, RejectedUpload, checkJoined } from './multipart';
import { contentDisposition } from './names';
import { assertSafeKey, isSafeKey } from './policies';
import type { CompleteRequest, MultipartRef, PartRequest, SignRequest, StorageDriver, UploadedPart } from './types';

export interface S3StorageOptions {
  /** Lifetime of a presigned upload URL in seconds; one hour by default. */
  ttlSeconds?: number;
  /** Size of every part of a multipart upload but the last (S3 needs at least 5 MiB). */
  partSize?: number;
}

type AwsError = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const errorName = (err: unknown) => (err as AwsError).name ?? (err as AwsError).Code;
const NO_UPLOAD = '上传任务不存在或已结束，请重新上传';
/** Path of files on this server (S3_READ=private): the same as the local driver's. */
const FILES_PREFIX = '/files/';
/**
 * Presigned reads are signed as of the start of the current window and valid for two windows, so a
 * URL handed out is valid for at least one window (a lecture watched with pauses and seeks), and
 * every reader within a window gets the same URL, which browsers then cache like any file.
 */
export const READ_WINDOW_SECONDS = 3600;

export class S3Storage implements StorageDriver {
  readonly name = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly ttlSeconds: number;
  readonly partSize: number;
  /** Prefix of every public file URL, without the trailing slash. */
  private readonly baseUrl: string;
  /** S3_READ: records hold `/files/<key>` (private bucket) or the public URL. */
  readonly read: 'private' | 'public';

  constructor(config: S3Config, options: S3StorageOptions = {}) {
    this.bucket = config.bucket;
    // loadConfig sets it from S3_READ (default private); a bare S3Config names the bucket's own URLs.
    this.read = config.read ?? 'public';
    this.ttlSeconds = options.ttlSeconds ?? 3600;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      // Without explicit keys the SDK's default chain applies (env, shared config, instance role).
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Recent SDKs add CRC32 checksums (and aws-chunked bodies) by default; a presigned URL would
      // then carry the checksum of an empty body, and several S3-compatible services reject them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // Around the SDK's retries: a bucket that stays unreachable becomes a 503 with a message.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          throw bucketFault(err);
        }
      },
      { step: 'initialize', name: 'storageFaults' },
    );
    this.baseUrl = publicBaseUrl(config);
  }

  /**
   * A presigned PUT whose signature covers Content-Length and Content-Type.
   *
   * Why PUT and not a presigned POST with a `content-length-range` policy: s3rver 3.7 (used in
   * tests) enforces neither (checked: it stores a POST body outside the policy's range, and a PUT
   * of another size or even with a zeroed X-Amz-Signature), so the choice rests on real services.
   * Every SigV4 server (AWS S3, MinIO, Aliyun OSS's S3 API, Cloudflare R2) verifies signed
   * headers, so a body of another size fails the signature, whereas browser POST policies are not
   * offered by every S3-compatible service (R2 has none). A browser cannot forge Content-Length: it
   * always sends the Blob's real size.
   */
  async signUpload(req: SignRequest) {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: req.key,
      ContentLength: req.size,
      ContentType: req.contentType,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: this.ttlSeconds,
      // The presigner leaves content-type unsigned by default; sign both so they are enforced.
      signableHeaders: new Set(['content-length', 'content-type']),
    });
    return {
      Method: 'PUT' as const,
      Url: url,
      // Content-Length is set by the browser from the body (it may not be set by script).
      Headers: { 'Content-Type': req.contentType },
      Fields: {},
    };
  }

  fileUrl(key: string): string {
    return this.read === 'private' ? `${FILES_PREFIX}${key}` : `${this.baseUrl}/${key}`;
  }

  /** Both forms are ours whatever S3_READ says now: records written under the other setting stay valid. */
  keyOf(url: string): string | undefined {
    const prefix = [FILES_PREFIX, `${this.baseUrl}/`].find((p) => url.startsWith(p));
    if (!prefix) return undefined;
    const key = url.slice(prefix.length);
    return isSafeKey(key) ? key : undefined;
  }

  keysIn(text: string): string[] {
    return keysAfterPrefixes(text, [FILES_PREFIX, `${this.baseUrl}/`]);
  }

  /**
   * Where `/files/<key>` sends a signed-in member: a presigned GET (S3_READ=private), the same URL
   * for everyone within a window (see READ_WINDOW_SECONDS); or the public URL.
   */
  async readLocation(key: string, fileName?: string): Promise<string> {
    assertSafeKey(key);
    if (this.read === 'public') return `${this.baseUrl}/${key}`;
    const windowMs = READ_WINDOW_SECONDS * 1000;
    const signingDate = new Date(Math.floor(Date.now() / windowMs) * windowMs);
    // The bucket answers with the original name (S3's response-content-disposition override).
    const disposition = fileName ? { ResponseContentDisposition: contentDisposition(fileName) } : {};
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ...disposition }), {
      expiresIn: 2 * READ_WINDOW_SECONDS,
      signingDate,
    });
  }

  async *listKeys(prefix = ''): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key && isSafeKey(object.Key)) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.sizeOf(key)) !== undefined;
  }

  async sizeOf(key: string): Promise<number | undefined> {
    if (!isSafeKey(key)) return undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    // DeleteObject succeeds on a missing key, so removing twice is harmless.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A presigned GET, so ffmpeg reads only the byte ranges it needs (posters). */
  async mediaSource(key: string): Promise<string> {
    assertSafeKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: 600 });
  }

  // ---- Multipart uploads ----

  async createMultipartUpload(req: SignRequest): Promise<string> {
    assertSafeKey(req.key);
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: req.key, ContentType: req.contentType }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
    return out.UploadId;
  }

  /** A presigned UploadPart whose signature covers the part's exact Content-Length. */
  async signPart(req: PartRequest) {
    assertSafeKey(req.key);
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: req.key,
      UploadId: req.uploadId,
      PartNumber: req.partNumber,
      ContentLength: req.size,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: this.ttlSeconds,
      signableHeaders: new Set(['content-length']),
    });
    return { Url: url, Headers: {} };
  }

  async listParts(ref: MultipartRef): Promise<UploadedPart[]> {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      // ListParts answers at most 1000 parts per page.
      for (;;) {
        const page = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: ref.key, UploadId: ref.uploadId, PartNumberMarker: marker }),
        );
        for (const p of page.Parts ?? []) {
          if (p.PartNumber && p.ETag) parts.push({ PartNumber: p.PartNumber, Size: p.Size ?? 0, ETag: p.ETag });
        }
        if (!page.IsTruncated || !page.NextPartNumberMarker) break;
        marker = page.NextPartNumberMarker;
      }
    } catch (err) {
      throw this.multipartError(err);
    }
    return parts.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  /** Completes on the bucket, then checks the object (HEAD for its size, the first 4 KiB for its type). */
  async completeMultipartUpload(req: CompleteRequest): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: req.key,
          UploadId: req.uploadId,
          MultipartUpload: { Parts: req.parts.map((p) => ({ PartNumber: p.PartNumber, ETag: p.ETag })) },
        }),
      );
    } catch (err) {
      throw this.multipartError(err);
    }
    try {
      const size = (await this.sizeOf(req.key)) ?? 0;
      checkJoined(req.key, req.size, size, size === 0 ? Buffer.alloc(0) : await this.head(req.key, MAGIC_HEAD_BYTES));
    } catch (err) {
      if (err instanceof RejectedUpload) await this.remove(req.key);
      throw err;
    }
  }

  async abortMultipartUpload(ref: MultipartRef): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: ref.key, UploadId: ref.uploadId }));
    } catch (err) {
      // Already completed or aborted: nothing is left, which is what abort wants. AWS says
      // NoSuchUpload; OpenStack Swift's S3 API says NoSuchKey for an upload already completed.
      const name = errorName(err);
      if (name === 'NoSuchUpload' || name === 'NoSuchKey') return;
      throw err;
    }
  }

  /** First bytes of an object, by a ranged GET. */
  private async head(key: string, bytes: number): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
    return out.Body ? Buffer.from(await out.Body.transformToByteArray()).subarray(0, bytes) : Buffer.alloc(0);
  }

  /** The bucket's refusals, in words the uploader can act on; anything else stays a 500. */
  private multipartError(err: unknown): Error {
    switch (errorName(err)) {
      case 'NoSuchUpload':
        return notFound(NO_UPLOAD);
      case 'InvalidPart':
        return badRequest('有分片未上传或校验值不符，请重新上传');
      case 'InvalidPartOrder':
        return badRequest('分片列表须按序号升序排列');
      case 'EntityTooSmall':
        return badRequest('除最后一个分片外，每个分片至少5MB');
      default:
        return err instanceof ApiError ? err : (err as Error);
    }
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    assertSafeKey(key);
    // A stream needs its length up front: S3 has no chunked PUT without the aws-chunked encoding.
    const { size } = await stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }
}

