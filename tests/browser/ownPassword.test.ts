// 修改密码 from the user menu, as a member does: the dialog checks the confirmation before
// sending, shows the server's refusal under 原密码, cannot be closed while the change is sent, and
// after 密码已修改 the new password is the one that logs in.
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yAudit, createMember, login, logout, seeNotification, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const DIALOG = '修改密码 dialog';
const CALL = '/Ajax/UpdateOwnPassword';
const NEW_PASSWORD = 'changed-in-browser-1';

let member: MemberLogin;
/** Calls of UpdateOwnPassword the page sent. */
let sent = 0;

beforeAll(async () => {
  member = await createMember(s.server, { useweb: '2' });
  s.page.on('request', (request) => {
    if (new URL(request.url()).pathname === CALL) sent++;
  });
  await login(s.page, member.userName, member.password);
});

const dialogOf = () => s.page.getByRole('dialog', { name: '修改密码' });
const field = (name: string) => dialogOf().getByRole('textbox', { name, exact: true });

describe('修改密码', () => {
  it('opens from the user menu, beside 登出', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '设置' }).click();
    await page.getByRole('menuitem', { name: '登出' }).waitFor();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    await dialogOf().waitFor();
    // The menu has closed; the dialog's three password inputs and its buttons are there.
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    for (const name of ['原密码', '新密码', '确认新密码']) {
      await expect(field(name).getAttribute('type')).resolves.toBe('password');
    }
    await dialogOf().getByRole('button', { name: '确定', exact: true }).waitFor();
    await dialogOf().getByRole('button', { name: '取消', exact: true }).waitFor();
    await audit.check(page, DIALOG);
  });

  it('checks that the two new passwords match before sending anything', async () => {
    await field('原密码').fill(member.password);
    await field('新密码').fill(NEW_PASSWORD);
    await field('确认新密码').fill(`${NEW_PASSWORD}x`);
    await dialogOf().getByRole('button', { name: '确定', exact: true }).click();
    await dialogOf().getByText('两次输入的新密码不一致', { exact: true }).waitFor();
    expect(sent).toBe(0);
  });

  it("shows the server's refusal of a wrong current password under 原密码", async () => {
    await field('原密码').fill('not-my-password');
    await field('确认新密码').fill(NEW_PASSWORD);
    await dialogOf().getByRole('button', { name: '确定', exact: true }).click();
    await dialogOf().getByText('原密码不正确', { exact: true }).waitFor();
    expect(sent).toBe(1);
    await expect(field('原密码').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('changes the password from the keyboard, and cannot be closed while it is sent', async () => {
    const { page } = s;
    // The answer is held back until the dialog has been asked to close.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${CALL}`, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await field('原密码').fill(member.password);
      await field('确认新密码').press('Enter');
      await expect.poll(() => sent).toBe(2);
      await page.keyboard.press('Escape');
      await expect(dialogOf().getByRole('button', { name: '确定', exact: true }).isDisabled()).resolves.toBe(true);
      await expect(dialogOf().getByRole('button', { name: '取消', exact: true }).isDisabled()).resolves.toBe(true);
      expect(await dialogOf().isVisible()).toBe(true);
      release();
      await seeNotification(page, '密码已修改');
      await dialogOf().waitFor({ state: 'hidden' });
    } finally {
      release();
      await page.unroute(`**${CALL}`);
    }
  });

  it('logs in with the new password after logging out', async () => {
    const { page } = s;
    await logout(page);
    await login(page, member.userName, NEW_PASSWORD);
    await expect(page.getByRole('button', { name: '设置' }).innerText()).resolves.toContain(member.auName);
  });
});

audit.tests([DIALOG]);
