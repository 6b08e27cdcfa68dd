// Entry point: read the configuration, build the app, listen; close cleanly on a signal.
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const { app, generatedAdminPassword, generatedDemoStaffPassword } = await buildApp(config);

if (generatedAdminPassword) {
  // Printed once, when the database is created: the only time this password is shown.
  console.log(`\n  内置管理员已创建 (built-in administrator created)\n  用户名 admin  密码 ${generatedAdminPassword}\n`);
}
if (generatedDemoStaffPassword) {
  // The demo's staff member (DEMO_DATA), likewise printed once unless DEMO_STAFF_PASSWORD set it.
  console.log(`\n  演示员工已创建 (demo staff member created)\n  用户名 staff  密码 ${generatedDemoStaffPassword}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

// The address actually bound (PORT=0 picks a free port: tests and benchmarks read it here).
const address = await app.listen({ port: config.port, host: config.host });
console.log(`知识学习后台: ${address}/  (API docs: /docs)`);
