import { videoResource } from '../../../schemas/video';
import { SchemaInputs } from '../../components/SchemaInputs';
import { fieldTitle } from '../../components/schemaFields';
import { UploadInput } from '../../components/UploadInput';
import { VideoUploadInput } from '../../components/video/VideoUploadInput';

/** The video form: name, speaker, date, pinned switch, the video, the handouts. */
export function VideoInputs() {
  return (
    <SchemaInputs
      descriptor={videoResource}
      fields={['VdName', 'VdPer', 'VdTime', 'IsTop', 'VdUrl', 'VdEnclosure']}
      overrides={{
        VdUrl: <VideoUploadInput source="VdUrl" label={fieldTitle(videoResource, 'VdUrl')} />,
        VdEnclosure: (
          <UploadInput
            source="VdEnclosure"
            label={fieldTitle(videoResource, 'VdEnclosure')}
            kind="handout"
            multiple
            helperText="可上传多个讲义文件（PDF、Office 文档、压缩包）"
          />
        ),
      }}
    />
  );
}
