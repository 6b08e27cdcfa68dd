import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { SchemaInputs } from '../../components/SchemaInputs';
import { fieldTitle } from '../../components/schemaFields';
import { UploadInput } from '../../components/UploadInput';

/** Form fields of a classification; the parent and the page type come from the route. */
export function ClassifyInputs({ descriptor }: { descriptor: ResourceDescriptor }) {
  return (
    <SchemaInputs
      descriptor={descriptor}
      fields={['ScName', 'ScSort', 'IsShow', 'ScIsFirst', 'ScImg', 'ScPageimg']}
      overrides={{
        ScImg: <UploadInput source="ScImg" label={fieldTitle(descriptor, 'ScImg')} kind="image" helperText="建议尺寸 500*200" />,
        ScPageimg: (
          <UploadInput source="ScPageimg" label={fieldTitle(descriptor, 'ScPageimg')} kind="image" helperText="建议尺寸 750*220" />
        ),
      }}
    />
  );
}
