// Addresses of an S3 bucket, apart from the AWS SDK: the security headers need them at start-up,
// and the SDK (some 20 MB) is loaded only when STORAGE=s3 (storage/index.ts).
import type { S3Config } from '../config';

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
