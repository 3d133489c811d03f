// Who sees the post besides the school's staff: the whole school, or levels and courses (the recipients data
// message compose loads). Native radios (Tab, Space and the arrows work as everywhere) and the app's tick boxes.
import { NEWS_FIELD_IDS } from '../../../../machines/news/compose-rules';
import {
  selectChosenCount,
  selectCourseIds,
  selectCourses,
  selectIsLocked,
  selectLevelIds,
  selectLevels,
  selectScope,
} from '../../../../machines/news/compose-selectors';
import { useT } from '../../../lib/i18n';
import { describedBy, FieldDescription, FieldError } from '../../../ui/field';
import { useNewsFieldError, type NewsComposeActor } from './shared';
import { useSelectors } from '../../../lib/selectors';
import { Checkbox } from '../../../ui/checkbox';
import { Radio } from '../../../ui/radio';

export function AudienceField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { scope, locked, count } = useSelectors(compose, { scope: selectScope, locked: selectIsLocked, count: selectChosenCount });
  const error = useNewsFieldError(compose, 'audience');
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={describedBy('news-audience-hint', error.text && error.id)}>
      <legend className="mb-1 text-sm font-medium">{t('newsCompose.audience')}</legend>
      <FieldDescription id="news-audience-hint">{t('newsCompose.audienceHint')}</FieldDescription>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <Radio
            id={NEWS_FIELD_IDS.audience}
            name="news-audience"
            checked={scope === 'school'}
            disabled={locked}
            onChange={() => compose.send({ type: 'news.setScope', scope: 'school' })}
          />
          {t('newsCompose.school')}
        </label>
        <label className="flex items-center gap-2">
          <Radio
            name="news-audience"
            checked={scope === 'groups'}
            disabled={locked}
            aria-invalid={error.invalid}
            onChange={() => compose.send({ type: 'news.setScope', scope: 'groups' })}
          />
          {t('newsCompose.groups')}
          {scope === 'groups' && <span className="text-muted-foreground">({t('newsCompose.chosen', { count })})</span>}
        </label>
      </div>
      {scope === 'groups' && <GroupPicker compose={compose} />}
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

function GroupPicker({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { levels, courses, levelIds, courseIds, locked } = useSelectors(compose, {
    levels: selectLevels,
    courses: selectCourses,
    levelIds: selectLevelIds,
    courseIds: selectCourseIds,
    locked: selectIsLocked,
  });
  const electives = courses.filter((course) => course.level_id === null);
  const toggle = (kind: 'level' | 'course', id: number) => compose.send({ type: 'news.toggleGroup', kind, id });
  return (
    <div className="flex max-h-80 flex-col gap-3 overflow-y-auto rounded-md border p-3 text-sm">
      {levels.map((level) => {
        const whole = levelIds.includes(level.id);
        return (
          <div key={level.id} className="flex flex-col gap-1">
            <label className="flex items-center gap-2 font-medium">
              <Checkbox checked={whole} disabled={locked} onCheckedChange={() => toggle('level', level.id)} />
              {level.nombre}
            </label>
            <ul aria-label={t('newsCompose.levelCourses', { level: level.nombre })} className="ml-6 flex flex-wrap gap-x-4 gap-y-1">
              {courses
                .filter((course) => course.level_id === level.id)
                .map((course) => (
                  <li key={course.id}>
                    <label className="flex items-center gap-2">
                      <Checkbox
                        checked={whole || courseIds.includes(course.id)}
                        disabled={locked || whole}
                        onCheckedChange={() => toggle('course', course.id)}
                      />
                      {course.nombre}
                      {whole && <span className="sr-only">({t('newsCompose.coveredByLevel')})</span>}
                    </label>
                  </li>
                ))}
            </ul>
          </div>
        );
      })}
      {electives.length > 0 && (
        <div className="flex flex-col gap-1">
          <span className="font-medium">{t('newsCompose.electives')}</span>
          <ul aria-label={t('newsCompose.electives')} className="ml-6 flex flex-wrap gap-x-4 gap-y-1">
            {electives.map((course) => (
              <li key={course.id}>
                <label className="flex items-center gap-2">
                  <Checkbox checked={courseIds.includes(course.id)} disabled={locked} onCheckedChange={() => toggle('course', course.id)} />
                  {course.nombre}
                </label>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
