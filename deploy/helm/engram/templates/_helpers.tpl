{{- define "engram.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "engram.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (api or worker): call with (dict "ctx" $ "component" "api"). */}}
{{- define "engram.selectorLabels" -}}
app.kubernetes.io/name: {{ .ctx.Chart.Name }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "engram.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "engram.secretName" -}}
{{ .Values.existingSecret | default (include "engram.fullname" .) }}
{{- end -}}

{{/* Prometheus scrapes a pod's /metrics only when it answers without credentials. */}}
{{- define "engram.scrapeMetrics" -}}
{{- if eq (toString (.Values.config.METRICS | default "open")) "open" }}true{{ end -}}
{{- end -}}

{{/*
What API and worker pods share: environment from the ConfigMap and Secret, a rollout when either changes, the
security context and the writable emptyDirs of a read-only root file system.
*/}}
{{- define "engram.envFrom" -}}
envFrom:
  - configMapRef:
      name: {{ include "engram.fullname" . }}
  - secretRef:
      name: {{ include "engram.secretName" . }}
{{- end -}}

{{- define "engram.configChecksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if not .Values.existingSecret }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end -}}

{{- define "engram.volumeMounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  - name: data
    mountPath: /data
{{- end -}}

{{- define "engram.volumes" -}}
volumes:
  - name: tmp
    emptyDir: {}
  - name: data
    emptyDir: {}
{{- end -}}
