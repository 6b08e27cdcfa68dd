import { useId } from 'react';
import { FormLabel, ToggleButton, ToggleButtonGroup, Box } from '@mui/material';
import { useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { SchemaInputs } from '../../components/SchemaInputs';
import { fieldTitle } from '../../components/schemaFields';
import { articleFormFields, contentTypes } from './articleRules';

/** SaType as two toggle buttons: 文件上传 (0) / 在线编辑 (1). */
function ContentTypeToggle({ label }: { label: string }) {
  const labelId = useId();
  const { field } = useInput({ source: 'SaType' });
  const value = Number(field.value) === 1 ? 1 : 0;
  return (
    <Box sx={{ mb: 2 }}>
      <FormLabel id={labelId} sx={{ display: 'block', mb: 0.5 }}>
        {label}
      </FormLabel>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={value}
        aria-labelledby={labelId}
        sx={{ '& .MuiToggleButton-root.Mui-selected': { color: 'primary.dark' } }}
        onChange={(_event, next: number | null) => {
          if (next !== null) field.onChange(next);
        }}
      >
        {contentTypes().map((choice) => (
          <ToggleButton key={choice.id} value={choice.id}>
            {choice.name}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}

/**
 * The 文章目录详情 form for a document type: 文号 on 法律法规 only, 是否置顶 on
 * 标准图集 and 造价刊物 only, and files or rich text by the content type.
 */
export function ArticleInputs({ descriptor, type }: { descriptor: ResourceDescriptor; type: number }) {
  const saType: unknown = useWatch({ name: 'SaType' });
  const fields = articleFormFields(type, Number(saType) === 1 ? 1 : 0);
  return (
    <SchemaInputs
      descriptor={descriptor}
      fields={fields}
      overrides={{ SaType: <ContentTypeToggle label={fieldTitle(descriptor, 'SaType')} /> }}
    />
  );
}

/** A unified answer: the schema's inputs its descriptor does not hide (name, sort, date, 问题, 统一回答). */
export function TykjInputs({ descriptor }: { descriptor: ResourceDescriptor }) {
  return <SchemaInputs descriptor={descriptor} />;
}
