#!/usr/bin/python3
# A one-node OpenStack Swift with its S3 API (the s3api middleware) on loopback, for the tests of
# the `s3` driver (tests/helpers/swiftS3.ts starts it). Debian's python3-swift provides Swift
# (scripts/ensure-swift.sh installs it); unlike s3rver, its S3 API implements ListParts and
# AbortMultipartUpload, verifies SigV4 signatures (headers and presigned URLs, a signed
# Content-Length included), compares part ETags and refuses parts under 5 MiB but the last.
#
# Usage: /usr/bin/python3 tests/helpers/swift-s3.py <empty directory>, stdin a pipe kept open.
# Everything (configuration, rings, data) lives in the directory. The proxy, account, container and
# object servers run as green threads of this one process, each on a free port of 127.0.0.1. When
# they listen, one JSON line goes to stdout: {"port": <S3 port>, "accessKeyId", "secretAccessKey",
# "account"}. Logs go to stderr. The process ends on SIGTERM or SIGINT (the starter then removes the
# directory), or when stdin closes: then the starter is gone, and the directory goes too.
import json
import logging
import os
import shutil
import signal
import sys
import time

import eventlet

eventlet.monkey_patch()

from eventlet import tpool, wsgi  # noqa: E402

from swift.common import utils  # noqa: E402
from swift.common.http_protocol import SwiftHttpProtocol  # noqa: E402
from swift.common.middleware import memcache as memcache_middleware  # noqa: E402
from swift.common.ring import RingBuilder  # noqa: E402
from swift.common.wsgi import loadapp  # noqa: E402

ACCOUNT, USER, KEY = 'test', 'tester', 'testing'


class DictCache(object):
    """In-process stand-in for memcached (tempauth requires a cache; one process needs no daemon)."""

    def __init__(self, *args, **kwargs):
        self.store = {}

    def _live(self, key):
        item = self.store.get(key)
        if item is None:
            return None
        value, expires = item
        if expires and expires < time.time():
            del self.store[key]
            return None
        return item

    @staticmethod
    def _expiry(ttl):
        return time.time() + ttl if ttl else 0

    def get(self, key, raise_on_error=False):
        item = self._live(key)
        return None if item is None else json.loads(item[0])

    def set(self, key, value, serialize=True, time=0, min_compress_len=0, raise_on_error=False):
        self.store[key] = (json.dumps(value), self._expiry(time))

    def incr(self, key, delta=1, time=0):
        item = self._live(key)
        value = (json.loads(item[0]) if item else 0) + delta
        if value < 0:
            value = 0
        self.store[key] = (json.dumps(value), self._expiry(time))
        return value

    def decr(self, key, delta=1, time=0):
        return self.incr(key, -delta, time)

    def delete(self, key, server_key=None):
        self.store.pop(key, None)

    def set_multi(self, mapping, server_key, serialize=True, time=0, min_compress_len=0):
        for key, value in mapping.items():
            self.set(key, value, time=time)

    def get_multi(self, keys, server_key):
        return [self.get(key) for key in keys]


class StderrLog(logging.StreamHandler):
    """Replaces Swift's syslog handler: no /dev/log here, and no UDP to port 514 either."""

    def __init__(self, address=None, facility=None, **kwargs):
        logging.StreamHandler.__init__(self, sys.stderr)


def listen():
    sock = eventlet.listen(('127.0.0.1', 0))
    return sock, sock.getsockname()[1]


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def build_ring(path, port):
    builder = RingBuilder(4, 1, 1)  # 16 partitions, one replica, min_part_hours
    builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': port,
                     'device': 'd1', 'weight': 1, 'meta': ''})
    builder.rebalance()
    builder.get_ring().save(path)


def main():
    root = os.path.abspath(sys.argv[1])
    devices = os.path.join(root, 'devices')
    os.makedirs(os.path.join(devices, 'd1'), exist_ok=True)

    write(os.path.join(root, 'swift.conf'), """
[swift-hash]
swift_hash_path_suffix = zhishi-tests
swift_hash_path_prefix = zhishi-tests

[storage-policy:0]
name = gold
default = yes

[swift-constraints]
max_manifest_segments = 10000
""")
    utils.ThreadSafeSysLogHandler = StderrLog
    memcache_middleware.MemcacheRing = DictCache
    utils.set_swift_dir(root)

    socks = {}
    for name in ('proxy', 'account', 'container', 'object'):
        socks[name] = listen()
    for name in ('account', 'container', 'object'):
        build_ring(os.path.join(root, '%s.ring.gz' % name), socks[name][1])

    common = """
[DEFAULT]
swift_dir = {root}
devices = {devices}
mount_check = false
disable_fallocate = true
log_level = {level}
""".format(root=root, devices=devices, level=os.environ.get('SWIFT_LOG_LEVEL', 'WARNING'))

    for name in ('account', 'container', 'object'):
        write(os.path.join(root, '%s-server.conf' % name), common + """
[pipeline:main]
pipeline = {name}-server

[app:{name}-server]
use = egg:swift#{name}
""".format(name=name))

    # The pipeline Swift documents for s3api with tempauth. s3api settings as on AWS: parts of at
    # least 5 MiB (but the last), up to 10000 parts, 15 minutes of clock skew.
    write(os.path.join(root, 'proxy-server.conf'), common + """
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
min_segment_size = 5242880
max_upload_part_num = 10000
allowable_clock_skew = 900

[filter:tempauth]
use = egg:swift#tempauth
user_{account}_{user} = {key} .admin

[filter:slo]
use = egg:swift#slo
max_manifest_segments = 10000

[filter:dlo]
use = egg:swift#dlo

[filter:copy]
use = egg:swift#copy

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:cache]
use = egg:swift#memcache

[filter:listing_formats]
use = egg:swift#listing_formats
""".format(account=ACCOUNT, user=USER, key=KEY))

    pool = eventlet.GreenPool()
    for name in ('account', 'container', 'object', 'proxy'):
        app = loadapp(os.path.join(root, '%s-server.conf' % name))
        pool.spawn(wsgi.server, socks[name][0], app, log=None, log_output=False,
                   protocol=SwiftHttpProtocol, capitalize_response_headers=False)

    def stop(*_):
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def watch_stdin():
        # A closed stdin means the process that started us is gone (read in a real thread): it
        # cannot remove the directory any more, so we do.
        while sys.stdin.buffer.read1(4096):
            pass
        shutil.rmtree(root, ignore_errors=True)

    eventlet.spawn(lambda: (tpool.execute(watch_stdin), stop()))

    sys.stdout.write(json.dumps({
        'port': socks['proxy'][1],
        'accessKeyId': '%s:%s' % (ACCOUNT, USER),
        'secretAccessKey': KEY,
        'account': 'AUTH_' + ACCOUNT,
    }) + '\n')
    sys.stdout.flush()
    pool.waitall()


if __name__ == '__main__':
    main()
