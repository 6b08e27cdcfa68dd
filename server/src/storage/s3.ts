// The `s3` driver: AWS S3 or any S3-compatible service (Aliyun OSS, MinIO…), through the AWS SDK
// for JavaScript v3. The browser sends the bytes straight to the bucket with a presigned URL.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import { assertSafeKey, isSafeKey } from './policies';
import type { SignRequest, StorageDriver } from './types';

export interface S3StorageOptions {
  /** Lifetime of a presigned upload URL in seconds; one hour by default. */
  ttlSeconds?: number;
}

export class S3Storage implements StorageDriver {
  readonly name = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly ttlSeconds: number;
  /** Prefix of every file URL, without the trailing slash. */
  private readonly baseUrl: string;

  constructor(config: S3Config, options: S3StorageOptions = {}) {
    this.bucket = config.bucket;
    this.ttlSeconds = options.ttlSeconds ?? 3600;
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
    return `${this.baseUrl}/${key}`;
  }

  keyOf(url: string): string | undefined {
    const prefix = `${this.baseUrl}/`;
    if (!url.startsWith(prefix)) return undefined;
    const key = url.slice(prefix.length);
    return isSafeKey(key) ? key : undefined;
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

/**
 * Where files are read from: S3_PUBLIC_BASE_URL (a CDN or custom domain) when set; else the
 * endpoint, path style (`<endpoint>/<bucket>`) or virtual-hosted (`<bucket>.<endpoint host>`) as
 * configured; else AWS's virtual-hosted URL.
 */
export function publicBaseUrl(config: S3Config): string {
  const trim = (s: string) => s.replace(/\/+$/, '');
  if (config.publicBaseUrl) return trim(config.publicBaseUrl);
  if (config.endpoint) {
    const endpoint = new URL(config.endpoint);
    // Like the SDK, fall back to path style for an IP address, which has no bucket subdomain.
    const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(endpoint.hostname) || endpoint.hostname.startsWith('[');
    if (config.forcePathStyle || isIp) return `${trim(endpoint.href)}/${config.bucket}`;
    endpoint.hostname = `${config.bucket}.${endpoint.hostname}`;
    return trim(endpoint.href);
  }
  return `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
}
