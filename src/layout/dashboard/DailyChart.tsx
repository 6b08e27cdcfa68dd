// The chart of plays and likes per day: @mui/x-charts, in a chunk of its own that only home loads
// (Dashboard.tsx, lazyPart), labelled in Chinese with the strings the library lacks (chartsZhCN).
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { LineChart } from '@mui/x-charts/LineChart';
import type { DashboardDay } from '../../../schemas/dashboard';
import { chartsZhCN } from './chartsZhCN';

export const PLAYS_LABEL = '播放量';
export const LIKES_LABEL = '点赞数';

/** 'YYYY-MM-DD' → 'MM-DD': the axis' labels (the year is the period's). */
const shortDay = (day: string) => day.slice(5);

export function DailyChart({ days, height }: { days: readonly DashboardDay[]; height: number }) {
  return (
    <ChartsLocalizationProvider localeText={chartsZhCN}>
      <LineChart
        height={height}
        skipAnimation
        xAxis={[{ scaleType: 'point', data: days.map((d) => d.Day), valueFormatter: shortDay, label: '日期' }]}
        yAxis={[{ label: '次数', width: 56 }]}
        series={[
          { data: days.map((d) => d.VdNum), label: PLAYS_LABEL, showMark: false },
          { data: days.map((d) => d.VdFabulous), label: LIKES_LABEL, showMark: false },
        ]}
        grid={{ horizontal: true }}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
      />
    </ChartsLocalizationProvider>
  );
}
