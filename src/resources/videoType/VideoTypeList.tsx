import { videoTypeResource } from '../../../schemas/videoType';
import { SchemaList } from '../../components/SchemaList';

/** 视频分类: name, sort, 编辑 / 删除; the 500px 详情 dialog with name and sort. */
export default function VideoTypeList() {
  return <SchemaList descriptor={videoTypeResource} title="视频分类" addLabel="添加" />;
}
