import { create, createFileRegistry, type FileRegistry, fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import * as wkt from "@bufbuild/protobuf/wkt";
import { file_buf_validate_validate } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { contractRulesBase64 } from "./gen/contract-rules";

/**
 * The contract's descriptors with every option, including the buf.validate rules that bound each
 * request field. The generated message code leaves those rules out (so the web app does not load
 * them); the server validates requests against the messages of this registry instead.
 */
export function contractRulesRegistry(): FileRegistry {
  const known = new Map<string, wkt.FileDescriptorProto>();
  for (const value of [file_buf_validate_validate, ...Object.values(wkt)]) {
    if (typeof value === "object" && value !== null && "kind" in value && value.kind === "file") {
      known.set(value.proto.name, value.proto);
    }
  }
  const own = fromBinary(wkt.FileDescriptorSetSchema, base64Decode(contractRulesBase64)).file;
  for (const file of own) known.set(file.name, file);
  // Every file after the files it imports, as a registry built from a set requires.
  const ordered: wkt.FileDescriptorProto[] = [];
  const placed = new Set<string>();
  const place = (file: wkt.FileDescriptorProto) => {
    if (placed.has(file.name)) return;
    placed.add(file.name);
    for (const name of file.dependency) {
      const dependency = known.get(name);
      if (!dependency) throw new Error(`contract rules: cannot find ${name}, imported by ${file.name}`);
      place(dependency);
    }
    ordered.push(file);
  };
  for (const file of own) place(file);
  return createFileRegistry(create(wkt.FileDescriptorSetSchema, { file: ordered }));
}
