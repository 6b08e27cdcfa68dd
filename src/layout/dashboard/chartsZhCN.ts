// Chinese strings of @mui/x-charts, which ships no zh-CN locale (9.17: enUS, frFR, ptBR… only):
// those a line chart of the free package can show (its overlay and what screen readers are told
// of a point), given to ChartsLocalizationProvider.
import type { ChartsLocaleText } from '@mui/x-charts/locales';

const NO_VALUE = '无数据';
const CONNECTOR = '，';

export const chartsZhCN: Partial<ChartsLocaleText> = {
  loading: '加载中…',
  noData: '暂无数据',
  zoomIn: '放大',
  zoomOut: '缩小',
  toolbarExport: '导出',
  toolbarExportPrint: '打印',
  toolbarExportImage: (mimeType) => `导出为${mimeType === 'image/png' ? 'PNG' : mimeType === 'image/jpeg' ? 'JPEG' : mimeType === 'image/webp' ? 'WebP' : mimeType}图片`,
  toolbarExportExcel: '导出为 Excel',
  chartTypeBar: '条形图',
  chartTypeColumn: '柱状图',
  chartTypeLine: '折线图',
  chartTypeArea: '面积图',
  chartTypePie: '饼图',
  a11yNoValue: NO_VALUE,
  a11yConnector: CONNECTOR,
  zoomRangeDescription: ({ axisDirection, start, end }) =>
    `${axisDirection === 'x' ? '横轴' : '纵轴'}显示 ${Math.round(start)}% 至 ${Math.round(end)}%`,
  lineDescription: ({ y, formattedXValue, formattedYValue, seriesLabel }) =>
    [formattedXValue, seriesLabel, y === null ? NO_VALUE : formattedYValue].filter(Boolean).join(CONNECTOR),
  barDescription: ({ value, formattedValue, formattedCategoryValue, seriesLabel }) =>
    [formattedCategoryValue, seriesLabel, value === null ? NO_VALUE : formattedValue].filter(Boolean).join(CONNECTOR),
};
