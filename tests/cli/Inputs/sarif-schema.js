// Validates SARIF files against the SARIF 2.1.0 JSON schema (the one the
// @microsoft/sarif-multitool package ships) with ajv.
// usage: node sarif-schema.js <schema> <file>...
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv2020({allErrors: true, strict: false});
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
let failed = 0;
for (const file of files) {
  if (validate(JSON.parse(fs.readFileSync(file, 'utf8')))) {
    console.log(`${file}: valid against the SARIF 2.1.0 schema`);
    continue;
  }
  failed++;
  for (const error of validate.errors)
    console.log(`${file}: ${error.instancePath || '/'} ${error.message}`);
}
process.exit(failed ? 1 : 0);
