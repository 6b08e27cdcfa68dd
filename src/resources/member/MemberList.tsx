import { required, useRecordContext } from 'react-admin';
import { memberResource } from '../../../schemas/member';
import { FlagInput, SchemaInput } from '../../components/SchemaInputs';
import { SchemaList } from '../../components/SchemaList';
import { fieldTitle } from '../../components/schemaFields';
import { ModulePermissionsInput } from './ModulePermissionsInput';

function MemberInputs() {
  const record = useRecordContext();
  const isEdit = record?.id !== undefined && record.id !== null;
  return (
    <>
      <SchemaInput descriptor={memberResource} field="UserName" />
      <SchemaInput descriptor={memberResource} field="AuName" />
      <SchemaInput descriptor={memberResource} field="OrganizationName" />
      <SchemaInput
        descriptor={memberResource}
        field="Password"
        optional={isEdit}
        validate={isEdit ? [] : [required()]}
        {...(isEdit ? { helperText: '留空则不修改' } : {})}
      />
      <FlagInput source="IsAdmin" label={fieldTitle(memberResource, 'IsAdmin')} />
      {/* 停用: the member can no longer log in, and their open sessions end at once. */}
      <FlagInput source="IsDisabled" label={fieldTitle(memberResource, 'IsDisabled')} />
      <ModulePermissionsInput />
    </>
  );
}

/** An empty password on edit means "keep it": it is not sent. */
function dropEmptyPassword(data: Record<string, unknown>): Record<string, unknown> {
  if (data.Password === '' || data.Password === null || data.Password === undefined) {
    const rest = { ...data };
    delete rest.Password;
    return rest;
  }
  return data;
}

/** 成员管理 (administrators only): logins, names, the admin and 停用 flags and per-module permissions. */
export default function MemberList() {
  return (
    <SchemaList
      descriptor={memberResource}
      title="成员管理"
      form={{ inputs: <MemberInputs />, transform: dropEmptyPassword, createDefaults: { Modules: {} } }}
    />
  );
}
