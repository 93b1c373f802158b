--- citecheck for Quarto: hands the whole document to the `citecheck` command as pandoc JSON
--- and reads the checked (and, in drafts, annotated) document back.
---
--- Use `filters: [citecheck]` in _quarto.yml or the document's front matter. The command is
--- `citecheck` on PATH unless CITECHECK_COMMAND names another. Options come from the document's
--- `citecheck:` metadata map or CITECHECK_* environment variables, as for `pandoc --filter`.

local function source_files()
  -- Quarto knows the .qmd the writer edits; plain pandoc knows its own input files.
  if quarto ~= nil and quarto.doc ~= nil and quarto.doc.input_file ~= nil then
    return { quarto.doc.input_file }
  end
  return PANDOC_STATE.input_files or {}
end

function Pandoc(doc)
  local command = os.getenv("CITECHECK_COMMAND") or "citecheck"
  local args = { "filter" }
  for _, file in ipairs(source_files()) do
    if file ~= "-" then
      table.insert(args, "--source")
      table.insert(args, file)
    end
  end
  table.insert(args, FORMAT)
  local ok, result = pcall(pandoc.pipe, command, args, pandoc.write(doc, "json"))
  if ok then
    return pandoc.read(result, "json")
  end
  local code = type(result) == "table" and result.error_code or nil
  if code == 1 or code == 2 or code == 7 or code == 70 then
    -- citecheck already printed why (strict mode or fail-on); stop the build as it asked.
    error("citecheck: citation problems fail this build (exit " .. tostring(code) .. ")")
  end
  io.stderr:write("[WARNING] citecheck: could not run '" .. command .. "': "
    .. tostring(type(result) == "table" and result.output or result) .. "\n")
  return doc
end
