import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ArtifactStore } from '../ports/index.js'

/**
 * Writes the files to a folder, then uploads them as a workflow artifact when the runner provides the
 * artifact service (ACTIONS_RUNTIME_TOKEN and ACTIONS_RESULTS_URL). Without it the folder is the record.
 */
export function createArtifactStore(
  root: string,
  env: Record<string, string | undefined>,
  log: { warning(message: string): void },
  /** The run's page, to link an uploaded artifact: `<runUrl>/artifacts/<id>`. */
  runUrl?: string
): ArtifactStore {
  return {
    async save(name, files) {
      const directory = path.join(root, name)
      await mkdir(directory, { recursive: true })
      const paths: string[] = []
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(directory, file)
        await writeFile(target, content)
        paths.push(target)
      }
      if (!env['ACTIONS_RUNTIME_TOKEN'] || !env['ACTIONS_RESULTS_URL']) {
        return {
          name,
          directory,
          files: paths,
          uploaded: false,
          note: `The artifact service is not available here; the records are in ${directory}.`
        }
      }
      try {
        // Loaded only when an upload happens: the artifact client is large.
        const { DefaultArtifactClient } = await import('@actions/artifact')
        const { id } = await new DefaultArtifactClient().uploadArtifact(name, paths, directory, {
          retentionDays: 30
        })
        const url = runUrl && id ? `${runUrl}/artifacts/${id}` : undefined
        return { name, directory, files: paths, uploaded: true, url }
      } catch (e) {
        const note = `Uploading artifact ${name} failed (${(e as Error).message}); the records are in ${directory}.`
        log.warning(note)
        return { name, directory, files: paths, uploaded: false, note }
      }
    }
  }
}
