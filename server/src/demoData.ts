// Demo content loaded once into a new database (DEMO_DATA=1), so that a newcomer sees a working
// product: video categories and playable videos with their plays and likes per day, comments, websites, the four document
// catalogues, unified answers, and a staff member with limited permissions, whose password is
// DEMO_STAFF_PASSWORD or, unset, made up here and printed once at start (bootstrap.ts,
// generatedPasswordsBlock), as the administrator's is: a demo server reachable by others has no
// published password.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { articleResource, tykjArticleResource } from '../../schemas/standardArticle';
import { classifyResource, tykjClassifyResource, ROOT_CODE } from '../../schemas/standardClassify';
import { usewebResource } from '../../schemas/useweb';
import { videoResource } from '../../schemas/video';
import { videoCommentResource } from '../../schemas/videoComment';
import { videoDailyResource } from '../../schemas/videoDaily';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';
import { videoTypeResource } from '../../schemas/videoType';
import { newCode } from './auth/members';
import { hashPassword } from './auth/password';
import { putDemoPoster } from './media/poster';
import type { Db } from './db/database';
import { insertRow, type Row } from './db/repository';
import type { StorageDriver } from './storage/types';
import { DEMO_DIR } from './paths';

const MEDIA_DIR = DEMO_DIR;

export const DEMO_STAFF = { UserName: 'staff' } as const;

export interface DemoDataOptions {
  /** The demo staff member's password (DEMO_STAFF_PASSWORD); a random one is made up when unset. */
  staffPassword?: string | undefined;
  /** The business time zone (TIME_ZONE), whose days the daily figures count. */
  timeZone?: string;
}

export interface DemoDataResult {
  /** Set when the staff member was just created with a made-up password: the only time it is known. */
  generatedStaffPassword?: string;
}

/** Days before now, as YYYY-MM-DD. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);

export async function loadDemoData(database: Db, storage: StorageDriver, options: DemoDataOptions = {}): Promise<DemoDataResult> {
  const stamp = new Date().toISOString();
  const put = async (file: string, key: string, type: string) => {
    await storage.putFile(key, path.join(MEDIA_DIR, file), type);
    return storage.fileUrl(key);
  };
  const videoUrl = await put('demo.mp4', 'demo/demo.mp4', 'video/mp4');
  await putDemoPoster(storage, 'demo/demo.mp4');
  const handoutUrl = await put('handout.pdf', 'demo/handout.pdf', 'application/pdf');
  const coverUrl = await put('cover.png', 'demo/cover.png', 'image/png');
  const pageUrl = await put('pageimg.png', 'demo/pageimg.png', 'image/png');
  const handouts = (names: string[]) => JSON.stringify(names.map((name) => ({ name, url: handoutUrl })));

  const insert = (d: ResourceDescriptor, values: Row) => {
    const row: Row = { ...values };
    if (d.codeField && row[d.codeField] === undefined) row[d.codeField] = newCode();
    if ('UpdateTime' in d.schema.properties) row.UpdateTime = stamp;
    return insertRow(database, d, row);
  };

  // Videos
  const types = [];
  for (const [i, name] of ['造价业务培训', '软件操作教程', '政策法规解读'].entries()) {
    types.push(await insert(videoTypeResource, { VdtName: name, VdtSort: i + 1 }));
  }
  const videos: [number, string, string, number, string[]][] = [
    [0, '建设工程工程量清单计价规范要点', '王工', 1, ['清单计价规范讲义.pdf']],
    [0, '全过程造价咨询实务', '李老师', 0, ['实务案例.pdf', '课后练习.pdf']],
    [0, '结算审核常见问题', '张工', 0, []],
    [1, '计价软件入门', '赵工', 1, ['软件操作手册.pdf']],
    [1, '算量软件建模技巧', '陈工', 0, []],
    [2, '最新造价政策解读', '刘老师', 0, ['政策汇编.pdf']],
  ];
  let first: Row | undefined;
  const zone = options.timeZone ?? DEFAULT_TIME_ZONE;
  for (const [i, [type, name, per, top, files]] of videos.entries()) {
    const plays = 20 - i * 3;
    const likes = 5 - (i % 5);
    const video = await insert(videoResource, {
      VdtCode: types[type]!.VdtCode,
      VdName: name,
      VdPer: per,
      VdTime: daysAgo(i * 7 + 1),
      VdUrl: videoUrl,
      VdEnclosure: handouts(files),
      IsTop: top,
      VdNum: plays,
      VdFabulous: likes,
      CreateUser: '管理员',
    });
    first ??= video;
    // Its counts spread over the business days since it was published, as the counters' calls
    // would have written them: the daily rows add up to the counters.
    const days = new Map<string, { VdNum: number; VdFabulous: number }>();
    const span = i * 7 + 1;
    const count = (n: number, field: 'VdNum' | 'VdFabulous') => {
      for (let k = 0; k < n; k++) {
        const day = dayIn(zone, Date.now() - ((k * 5) % span) * 86400000);
        const figures = days.get(day) ?? { VdNum: 0, VdFabulous: 0 };
        figures[field]++;
        days.set(day, figures);
      }
    };
    count(plays, 'VdNum');
    count(likes, 'VdFabulous');
    for (const [Day, figures] of days) await insert(videoDailyResource, { VdCode: video.VdCode, Day, ...figures });
  }
  for (const [name, org, text] of [
    ['张三', '造价一部', '<p>讲得很清楚，<strong>清单项目特征</strong>部分很有帮助。</p>'],
    ['李四', '审计部', '<p>希望后续能补充案例讲解。</p>'],
  ] as const) {
    await insert(videoCommentResource, {
      VdCode: first!.VdCode,
      VmName: '',
      VmDes: text,
      VmTime: stamp,
      AuCode: '',
      AuName: name,
      OrganizationName: org,
    });
  }

  // Common websites
  for (const [i, [name, url]] of [
    ['中华人民共和国住房和城乡建设部', 'https://www.mohurd.gov.cn/'],
    ['中国建设工程造价管理协会', 'http://www.ceca.org.cn/'],
    ['全国建筑市场监管公共服务平台', 'https://jzsc.mohurd.gov.cn/'],
    ['国家标准全文公开系统', 'https://openstd.samr.gov.cn/'],
    ['中国政府网', 'https://www.gov.cn/'],
  ].entries()) {
    await insert(usewebResource, { UwName: name, UwUrl: url, UwType: 0, UwSort: i + 1 });
  }

  // Document catalogues (/Xcx1/): type 0 标准图集, 1 法律法规, 2 造价刊物, 3 公司通用文档.
  const classify = (d: ResourceDescriptor, type: number, name: string, sort: number, father = ROOT_CODE) =>
    insert(d, {
      ScFatherCode: father,
      ScName: name,
      ScImg: coverUrl,
      ScPageimg: pageUrl,
      ScSort: sort,
      ScIsFirst: sort === 1 ? 1 : 0,
      IsShow: 1,
      type,
    });
  const article = (d: ResourceDescriptor, sc: Row, values: Row) =>
    insert(d, { ScCode: sc.ScCode, type: sc.type, CreateUser: '管理员', SaPdfUrl: '[]', ...values });

  const atlas = await classify(classifyResource, 0, '建筑专业', 1);
  const atlasChild = await classify(classifyResource, 0, '结构专业', 2);
  await classify(classifyResource, 0, '混凝土结构', 1, atlasChild.ScCode as string);
  for (const [i, name] of ['16G101-1 混凝土结构施工图平面整体表示方法', '22J403-1 楼梯 栏杆 栏板', '12J201 平屋面建筑构造'].entries()) {
    await article(articleResource, i === 0 ? atlasChild : atlas, {
      SaType: 0,
      SaName: name,
      SaSort: i + 1,
      IsCommon: i === 0 ? 1 : 0,
      PublishTime: daysAgo(30 * (i + 1)),
      SaPdfUrl: handouts(i === 1 ? ['图集正文.pdf', '图集勘误.pdf'] : ['图集正文.pdf']),
    });
  }
  const laws = await classify(classifyResource, 1, '法律', 1);
  await classify(classifyResource, 1, '部门规章', 2);
  for (const [i, [name, code]] of [
    ['中华人民共和国建筑法', '主席令第46号'],
    ['建设工程质量管理条例', '国务院令第279号'],
  ].entries()) {
    await article(articleResource, laws, {
      SaType: 1,
      SaName: name,
      SaCodeName: code,
      SaSort: i + 1,
      PublishTime: daysAgo(100 + i),
      SaPdfContent: `<h2>${name}</h2><p>第一条 为了加强管理，维护市场秩序，保证工程质量和安全，制定本法。</p><ol><li>总则</li><li>许可</li></ol>`,
    });
  }
  const journal = await classify(classifyResource, 2, '造价月刊', 1);
  await article(articleResource, journal, {
    SaType: 0,
    SaName: '2026年第10期 造价信息',
    SaSort: 1,
    IsCommon: 1,
    PublishTime: daysAgo(20),
    SaPdfUrl: handouts(['造价信息2026-10.pdf']),
  });
  const company = await classify(classifyResource, 3, '制度文件', 1);
  await article(articleResource, company, {
    SaType: 1,
    SaName: '项目咨询成果文件归档规定',
    SaSort: 1,
    PublishTime: daysAgo(50),
    SaPdfContent: '<p>各部门应在项目完成后<strong>30日内</strong>完成成果文件归档。</p>',
  });

  // Unified answers (/Xcx3/)
  const rules = await classify(tykjClassifyResource, 0, '计价规则', 1);
  const quantities = await classify(tykjClassifyResource, 0, '工程量计算', 2);
  for (const [sc, name, q, a] of [
    [rules, '暂列金额如何计取？', '招标控制价中暂列金额应如何确定？', '一般可按分部分项工程费的10%～15%估列，具体以招标文件为准。'],
    [rules, '安全文明施工费能否竞争？', '投标报价时安全文明施工费是否可以下浮？', '不可以。安全文明施工费应按规定标准计取，不得作为竞争性费用。'],
    [quantities, '砌体墙工程量扣除规则', '砌体墙计算时门窗洞口是否扣除？', '应扣除门窗洞口、过人洞及单个面积大于0.3㎡的孔洞所占体积。'],
  ] as const) {
    await article(tykjArticleResource, sc, {
      SaType: 1,
      SaName: name,
      SaProblem: `<p>${q}</p>`,
      SaAnswer: `<p>${a}</p>`,
      PublishTime: daysAgo(10),
    });
  }

  // A staff member with limited permissions, to see the screens a non-administrator gets.
  const generatedStaffPassword = options.staffPassword ? undefined : randomBytes(9).toString('base64url');
  const inserted = await database.db
    .insertInto('MEMBER')
    .values({
      AU_CODE: newCode(),
      USER_NAME: DEMO_STAFF.UserName,
      AU_NAME: '演示员工',
      ORGANIZATION_NAME: '造价一部',
      IS_ADMIN: 0,
      IS_BUILTIN: 0,
      MODULES: JSON.stringify({ video: '1,2', videoView: '1,2', useweb: '2', article: '2', tykj: '2' }),
      PASSWORD_HASH: await hashPassword(options.staffPassword || generatedStaffPassword!),
      UPDATE_TIME: stamp,
    })
    .onConflict((oc) => oc.column('USER_NAME').doNothing())
    .returning('ID')
    .executeTakeFirst();
  // A `staff` that already existed keeps its own password: nothing to show.
  return inserted && generatedStaffPassword ? { generatedStaffPassword } : {};
}
