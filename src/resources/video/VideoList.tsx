import { videoResource } from '../../../schemas/video';
import { SchemaList } from '../../components/SchemaList';
import { CategoryTabs } from '../../components/video/CategoryTabs';
import { PreloadVideoDialog, videoForm } from './VideoDialog';

/**
 * 视频学习编辑: a tab per category; its videos 15 a page, pinned first then newest
 * (IS_TOP DESC, VD_TIME DESC); 添加 with code 1; 编辑 / 删除 with codes 3 / 4 on videos the member
 * created (administrators: all), through canAccess with the row; the 600px 详情 dialog.
 */
export default function VideoList() {
  return (
    <>
      <PreloadVideoDialog />
      <CategoryTabs>
        {(vdtCode) => (
          <SchemaList
            // A new category is a new list: first page, fresh request.
            key={vdtCode}
            descriptor={videoResource}
            addLabel="添加"
            filter={{ VdtCode: vdtCode }}
            form={videoForm(vdtCode)}
          />
        )}
      </CategoryTabs>
    </>
  );
}
