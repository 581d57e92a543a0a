// One export, whatever asks for it (`rewind-studio export`, the app's Export…): the tree model
// (export-model.ts) rendered to Markdown, one HTML page, or JSON, with the name and type a file
// of it gets.
import { escapeControlCharsInJson } from '../../shared/control-chars'
import type { ExportFormat, ExportedFile } from '../../shared/views'
import { type ExportScope, type ExportSource, buildExportModel } from './export-model'
import { renderHtml } from './html'
import { renderMarkdown } from './markdown'

const TYPES: Record<ExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json'
}

export function renderExport(
  source: ExportSource,
  format: ExportFormat,
  scope: ExportScope
): ExportedFile {
  const model = buildExportModel(source, scope)
  const content =
    format === 'md'
      ? renderMarkdown(model)
      : format === 'html'
        ? renderHtml(model)
        : // JSON.stringify leaves DEL, C1 and bidi characters raw: escaped, they mean the same.
          `${escapeControlCharsInJson(JSON.stringify(model))}\n`
  const id = source.header.sessionId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 13) || 'session'
  return {
    fileName: `rewind-studio-${id}-${scope.kind === 'all' ? 'tree' : 'branch'}.${format}`,
    mimeType: TYPES[format],
    content
  }
}
