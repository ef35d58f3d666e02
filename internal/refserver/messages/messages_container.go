package messages

// The container request field (docs/messages-wire.md 2.1): the id of a
// code-execution container to reuse, or {id?, skills} to load skills into
// it (a new container when id is absent).

// containerSkill is one entry of container.skills, echoed in the
// response's container.skills.
type containerSkill struct {
	SkillID string `json:"skill_id"`
	Type    string `json:"type"`
	Version string `json:"version"` // "latest" when the request left it out
}

// maxContainerSkills bounds container.skills.
const maxContainerSkills = 8

func (r *msgRequest) fContainer(p string, v *jnode) error {
	if v.kind == jString {
		r.container = v.str
		return nil
	}
	if v.kind != jObject {
		return pyErr(p, "Input should be a valid string or a valid dictionary")
	}
	return walkObject(p, v, map[string]fieldFunc{
		"id": nullable(func(p string, v *jnode) error {
			s, err := readString(p, v)
			r.container = s
			return err
		}),
		"skills": nullable(func(p string, v *jnode) error {
			items, err := readList(p, v)
			if err != nil {
				return err
			}
			if len(items) > maxContainerSkills {
				return errMaxItems(p, maxContainerSkills, len(items))
			}
			r.skills = make([]containerSkill, 0, len(items))
			for i, it := range items {
				sk := containerSkill{Version: "latest"}
				err := walkObject(joinPath(p, i), it, map[string]fieldFunc{
					"skill_id": func(p string, v *jnode) error {
						s, err := readStrLen(p, v, 1, 256)
						sk.SkillID = s
						return err
					},
					"type": func(p string, v *jnode) error {
						s, err := readEnum(p, v, "vendor", "custom")
						sk.Type = s
						return err
					},
					"version": nullable(func(p string, v *jnode) error {
						s, err := readStrLen(p, v, 1, 256)
						sk.Version = s
						return err
					}),
				}, "skill_id", "type")
				if err != nil {
					return err
				}
				r.skills = append(r.skills, sk)
			}
			return nil
		}),
	})
}
