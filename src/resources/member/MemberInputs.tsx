import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { memberResource } from '../../../schemas/member';
import { FlagInput, SchemaInput } from '../../components/SchemaInputs';
import { fieldTitle } from '../../components/schemaFields';
import { ModulePermissionsInput } from './ModulePermissionsInput';

/**
 * The 成员详情 dialog's inputs: the password may stay empty on edit (kept as it is). The built-in
 * administrator's password is not set here (the server refuses it): only by its owner, 修改密码.
 */
export function MemberInputs() {
  const record = useRecordContext();
  const isEdit = record?.id !== undefined && record.id !== null;
  const isBuiltin = record?.IsBuiltin === 1;
  return (
    <>
      <SchemaInput descriptor={memberResource} field="UserName" />
      <SchemaInput descriptor={memberResource} field="AuName" />
      <SchemaInput descriptor={memberResource} field="OrganizationName" />
      {isBuiltin ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          内置管理员的密码只能由其本人修改（右上角菜单「修改密码」）
        </Typography>
      ) : (
        <SchemaInput
          descriptor={memberResource}
          field="Password"
          // Required on add only (the AddMember body, schemas/validation.ts); left empty on edit, it is kept.
          isRequired={!isEdit}
          {...(isEdit ? { helperText: '留空则不修改' } : {})}
        />
      )}
      <FlagInput source="IsAdmin" label={fieldTitle(memberResource, 'IsAdmin')} />
      {/* 停用: the member can no longer log in, and their open sessions end at once. */}
      <FlagInput source="IsDisabled" label={fieldTitle(memberResource, 'IsDisabled')} />
      <ModulePermissionsInput />
    </>
  );
}
