//! The 25 standard generals and Hua Xiong (rules §11, table T4), with their skills as data:
//! each skill has a trigger timing and whether it is compulsory or a Lord skill.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kingdom {
    Wei,
    Shu,
    Wu,
    Qun,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gender {
    Male,
    Female,
}

/// When a skill acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Timing {
    /// Always on: changes a rule (distance, limits, who may be targeted).
    Passive,
    /// Lets a card be used or played as another card.
    Conversion,
    /// An action of the owner's Play phase.
    PlayPhase,
    /// In the owner's Start phase.
    StartPhase,
    /// Replaces or changes the owner's Draw phase.
    DrawPhase,
    /// In the owner's Discard phase.
    DiscardPhase,
    /// In the owner's End phase.
    EndPhase,
    /// After the owner takes damage.
    AfterDamage,
    /// Around a judgement card.
    Judgement,
    /// When the owner's Attack targets someone, or the owner becomes a target.
    Targeting,
    /// When a Dodge or Attack is needed (Lord helpers).
    Response,
    /// In a rescue window.
    Rescue,
    /// When the owner loses cards.
    CardLoss,
    /// When the owner uses a tool card.
    ToolUse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Skill {
    Treachery,
    Entourage,
    Retaliation,
    DemonicTalent,
    Unyielding,
    Raid,
    BareChested,
    EnvyOfHeaven,
    BequeathedStrategy,
    GoddessLuo,
    Impetus,
    Benevolence,
    Rouse,
    WarriorSaint,
    Berserk,
    Stargaze,
    EmptyCity,
    DragonHeart,
    Horsemanship,
    IronCavalry,
    Wisdom,
    Genius,
    BalanceOfPower,
    Rescued,
    SurpriseRaid,
    Restraint,
    TrojanFlesh,
    Handsome,
    SowDissension,
    NationalBeauty,
    Displacement,
    Humility,
    OneAfterAnother,
    Marriage,
    WarriorWoman,
    FirstAid,
    GreenSalve,
    Unrivaled,
    SeedOfAnimosity,
    EclipseTheMoon,
    Triumphant,
}

impl Skill {
    pub const fn name(self) -> &'static str {
        use Skill::*;
        match self {
            Treachery => "Treachery",
            Entourage => "Entourage",
            Retaliation => "Retaliation",
            DemonicTalent => "Demonic Talent",
            Unyielding => "Unyielding",
            Raid => "Raid",
            BareChested => "Bare-Chested",
            EnvyOfHeaven => "Envy of Heaven",
            BequeathedStrategy => "Bequeathed Strategy",
            GoddessLuo => "Goddess Luo",
            Impetus => "Impetus",
            Benevolence => "Benevolence",
            Rouse => "Rouse",
            WarriorSaint => "Warrior Saint",
            Berserk => "Berserk",
            Stargaze => "Stargaze",
            EmptyCity => "Empty City",
            DragonHeart => "Dragon Heart",
            Horsemanship => "Horsemanship",
            IronCavalry => "Iron Cavalry",
            Wisdom => "Wisdom",
            Genius => "Genius",
            BalanceOfPower => "Balance of Power",
            Rescued => "Rescued",
            SurpriseRaid => "Surprise Raid",
            Restraint => "Restraint",
            TrojanFlesh => "Trojan Flesh",
            Handsome => "Handsome",
            SowDissension => "Sow Dissension",
            NationalBeauty => "National Beauty",
            Displacement => "Displacement",
            Humility => "Humility",
            OneAfterAnother => "One After Another",
            Marriage => "Marriage",
            WarriorWoman => "Warrior Woman",
            FirstAid => "First Aid",
            GreenSalve => "Green Salve",
            Unrivaled => "Unrivaled",
            SeedOfAnimosity => "Seed of Animosity",
            EclipseTheMoon => "Eclipse the Moon",
            Triumphant => "Triumphant",
        }
    }

    pub const fn timing(self) -> Timing {
        use Skill::*;
        use Timing as T;
        match self {
            Treachery | Retaliation | Unyielding | BequeathedStrategy | Triumphant => T::AfterDamage,
            Entourage | Rouse => T::Response,
            DemonicTalent | EnvyOfHeaven => T::Judgement,
            Raid | BareChested | Handsome => T::DrawPhase,
            GoddessLuo | Stargaze => T::StartPhase,
            Impetus | WarriorSaint | DragonHeart | SurpriseRaid | NationalBeauty => T::Conversion,
            Benevolence | BalanceOfPower | TrojanFlesh | SowDissension | Marriage | GreenSalve | SeedOfAnimosity => {
                T::PlayPhase
            }
            Berserk | EmptyCity | Horsemanship | Genius | Humility | Unrivaled => T::Passive,
            IronCavalry | Displacement => T::Targeting,
            Wisdom => T::ToolUse,
            Rescued | FirstAid => T::Rescue,
            Restraint => T::DiscardPhase,
            OneAfterAnother | WarriorWoman => T::CardLoss,
            EclipseTheMoon => T::EndPhase,
        }
    }

    pub const fn is_lord_skill(self) -> bool {
        matches!(self, Skill::Entourage | Skill::Rouse | Skill::Rescued)
    }

    pub const fn is_compulsory(self) -> bool {
        use Skill::*;
        matches!(self, EmptyCity | Horsemanship | Genius | Rescued | Humility | Unrivaled | Triumphant | Berserk)
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum General {
    CaoCao,
    SimaYi,
    XiahouDun,
    ZhangLiao,
    XuChu,
    GuoJia,
    ZhenJi,
    LiuBei,
    GuanYu,
    ZhangFei,
    ZhugeLiang,
    ZhaoYun,
    MaChao,
    HuangYueying,
    SunQuan,
    GanNing,
    LvMeng,
    HuangGai,
    ZhouYu,
    DaQiao,
    LuXun,
    SunShangXiang,
    HuaTuo,
    LvBu,
    DiaoChan,
    HuaXiong,
}

/// One row of T4.
#[derive(Clone, Copy, Debug)]
pub struct GeneralDef {
    pub name: &'static str,
    pub kingdom: Kingdom,
    pub hp: u8,
    pub gender: Gender,
    pub skills: &'static [Skill],
}

impl General {
    /// The 25 standard generals (Hua Xiong is added by a room option).
    pub const STANDARD: [General; 25] = [
        General::CaoCao,
        General::SimaYi,
        General::XiahouDun,
        General::ZhangLiao,
        General::XuChu,
        General::GuoJia,
        General::ZhenJi,
        General::LiuBei,
        General::GuanYu,
        General::ZhangFei,
        General::ZhugeLiang,
        General::ZhaoYun,
        General::MaChao,
        General::HuangYueying,
        General::SunQuan,
        General::GanNing,
        General::LvMeng,
        General::HuangGai,
        General::ZhouYu,
        General::DaQiao,
        General::LuXun,
        General::SunShangXiang,
        General::HuaTuo,
        General::LvBu,
        General::DiaoChan,
    ];
    /// The lord-capable generals every Lord is offered.
    pub const LORDS: [General; 3] = [General::CaoCao, General::LiuBei, General::SunQuan];

    pub const fn def(self) -> GeneralDef {
        use Gender::*;
        use General::*;
        use Kingdom::*;
        use Skill::*;
        const fn g(
            name: &'static str,
            kingdom: Kingdom,
            hp: u8,
            gender: Gender,
            skills: &'static [Skill],
        ) -> GeneralDef {
            GeneralDef { name, kingdom, hp, gender, skills }
        }
        match self {
            CaoCao => g("Cao Cao", Wei, 4, Male, &[Treachery, Entourage]),
            SimaYi => g("Sima Yi", Wei, 3, Male, &[Retaliation, DemonicTalent]),
            XiahouDun => g("Xiahou Dun", Wei, 4, Male, &[Unyielding]),
            ZhangLiao => g("Zhang Liao", Wei, 4, Male, &[Raid]),
            XuChu => g("Xu Chu", Wei, 4, Male, &[BareChested]),
            GuoJia => g("Guo Jia", Wei, 3, Male, &[EnvyOfHeaven, BequeathedStrategy]),
            ZhenJi => g("Zhen Ji", Wei, 3, Female, &[GoddessLuo, Impetus]),
            LiuBei => g("Liu Bei", Shu, 4, Male, &[Benevolence, Rouse]),
            GuanYu => g("Guan Yu", Shu, 4, Male, &[WarriorSaint]),
            ZhangFei => g("Zhang Fei", Shu, 4, Male, &[Berserk]),
            ZhugeLiang => g("Zhuge Liang", Shu, 3, Male, &[Stargaze, EmptyCity]),
            ZhaoYun => g("Zhao Yun", Shu, 4, Male, &[DragonHeart]),
            MaChao => g("Ma Chao", Shu, 4, Male, &[Horsemanship, IronCavalry]),
            HuangYueying => g("Huang Yueying", Shu, 3, Female, &[Wisdom, Genius]),
            SunQuan => g("Sun Quan", Wu, 4, Male, &[BalanceOfPower, Rescued]),
            GanNing => g("Gan Ning", Wu, 4, Male, &[SurpriseRaid]),
            LvMeng => g("Lv Meng", Wu, 4, Male, &[Restraint]),
            HuangGai => g("Huang Gai", Wu, 4, Male, &[TrojanFlesh]),
            ZhouYu => g("Zhou Yu", Wu, 3, Male, &[Handsome, SowDissension]),
            DaQiao => g("Da Qiao", Wu, 3, Female, &[NationalBeauty, Displacement]),
            LuXun => g("Lu Xun", Wu, 3, Male, &[Humility, OneAfterAnother]),
            SunShangXiang => g("Sun Shang Xiang", Wu, 3, Female, &[Marriage, WarriorWoman]),
            HuaTuo => g("Hua Tuo", Qun, 3, Male, &[FirstAid, GreenSalve]),
            LvBu => g("Lv Bu", Qun, 4, Male, &[Unrivaled]),
            DiaoChan => g("Diao Chan", Qun, 3, Female, &[SeedOfAnimosity, EclipseTheMoon]),
            HuaXiong => g("Hua Xiong", Qun, 6, Male, &[Triumphant]),
        }
    }

    pub const fn name(self) -> &'static str {
        self.def().name
    }

    /// The general's skills as a bit set (bit = `Skill as u32`), for quick `has` checks.
    pub const fn skill_bits(self) -> u64 {
        SKILL_BITS[self as usize]
    }

    /// Parses a general by its display name, case and spaces ignored (`"zhaoyun"`, `"Zhao Yun"`).
    pub fn parse(s: &str) -> Option<General> {
        let key: String = s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
        General::STANDARD.into_iter().chain([General::HuaXiong]).find(|g| {
            let n: String = g.name().chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
            n == key
        })
    }
}

const ALL_GENERALS: usize = 26;

/// `skill_bits` of every general, worked out at compile time.
static SKILL_BITS: [u64; ALL_GENERALS] = {
    let mut bits = [0u64; ALL_GENERALS];
    let mut i = 0;
    while i < ALL_GENERALS {
        let g = if i < 25 { General::STANDARD[i] } else { General::HuaXiong };
        let skills = g.def().skills;
        let mut j = 0;
        while j < skills.len() {
            bits[g as usize] |= 1 << skills[j] as u32;
            j += 1;
        }
        i += 1;
    }
    bits
};

impl fmt::Display for General {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_t4() {
        let count = |k| General::STANDARD.iter().filter(|g| g.def().kingdom == k).count();
        assert_eq!((count(Kingdom::Wei), count(Kingdom::Shu), count(Kingdom::Wu), count(Kingdom::Qun)), (7, 7, 8, 3));
        let skills: usize = General::STANDARD.iter().map(|g| g.def().skills.len()).sum::<usize>() + 1;
        assert_eq!(skills, 41);
        assert_eq!(General::HuaXiong.def().hp, 6);
        assert_eq!(General::parse("zhao yun"), Some(General::ZhaoYun));
        for g in General::LORDS {
            assert!(g.def().skills.iter().any(|s| s.is_lord_skill()));
        }
    }
}
