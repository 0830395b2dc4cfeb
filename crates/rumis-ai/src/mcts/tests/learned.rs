//! The learned priors in the search: where a model is used, and at whose nodes it stands.

use super::*;

/// A learned model is used: weights that want the biggest stone, or the smallest, make
/// the search's most visited first move one of those; where the scenario's settings
/// name no player count (today every board, a user's too) the search keeps the
/// hand-made priors.
///
/// Over 120 lines, left whole when the search was split into files: a table of which
/// model stands where (by board, player count and level), read top to bottom as one list.
#[test]
fn learned_priors_steer_the_search() {
    let g = game("chullpa", 2, Variant::Standard);
    for (weight, want) in [(40.0, 4), (-40.0, 2)] {
        let mut w = [0.0; priors::FEATURES];
        w[6] = weight;
        let model = Arc::new(PriorModel { full: w, quick: w });
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(60),
            priors: PriorSource::Learned(model),
            seed: 3,
            ..MctsConfig::default()
        });
        let r = p.search(&g).unwrap();
        assert_eq!(g.site().template(r.best).stone.size(), want, "{}", g.notation(r.best));
    }
    // Where the scenario leaves the room out (Coricancha) the quick weights rule at the
    // root too: full weights that want big stones, quick ones that want dominoes.
    let coricancha = game("coricancha", 4, Variant::Standard);
    let (mut full, mut quick) = ([0.0; priors::FEATURES], [0.0; priors::FEATURES]);
    full[6] = 40.0;
    quick[6] = -40.0;
    let model = Arc::new(PriorModel { full, quick });
    for (g, want) in [(&coricancha, 2), (&g, 4)] {
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(60),
            priors: PriorSource::Learned(model.clone()),
            seed: 3,
            ..MctsConfig::default()
        });
        let r = p.search(g).unwrap();
        assert_eq!(g.site().template(r.best).stone.size(), want, "{}", g.notation(r.best));
    }
    // The scenarios' learned priors: Coricancha with 3 and 4 players has its own model,
    // which level 9's search takes and levels 4-8 do not; with 2 players the general
    // 2-player model, as on Chullpa with 2; in the two-player four-colour game on
    // Chullpa alone.
    assert_eq!(
        PriorSource::Scenario.model(coricancha.site()).as_deref(),
        priors::scenario_model("Coricancha")
    );
    assert!(priors::scenario_model("Coricancha").is_some());
    assert_ne!(priors::general_model(2), PriorModel::builtin());
    assert_eq!(
        PriorSource::Scenario.model(g.site()).as_deref(),
        Some(priors::general_model(2))
    );
    for level in 4..=9 {
        let cfg = crate::level_config(level);
        let tree = TreeSearch::new(coricancha.site(), &cfg, 1, Vec::new());
        let learned = tree.learned.as_ref().map(|(m, _)| &**m);
        let want = (level == 9).then(|| priors::scenario_model("coricancha").unwrap());
        assert_eq!(learned, want, "level {level}");
    }
    let coricancha3 = game("coricancha", 3, Variant::Standard);
    assert_eq!(
        PriorSource::Scenario.model(coricancha3.site()).as_deref(),
        priors::scenario_model("Coricancha")
    );
    let coricancha2 = game("coricancha", 2, Variant::Standard);
    assert_eq!(
        PriorSource::Scenario.model(coricancha2.site()).as_deref(),
        Some(priors::general_model(2))
    );
    assert!(PriorSource::Scenario
        .model(game("coricancha", 2, Variant::TwoPlayerFourColors).site())
        .is_none());
    // The other built-in boards: the general model of the player count with 3 and 4
    // players, for level 9 alone; with 2 on Chullpa alone.
    let chullpa4 = game("chullpa", 4, Variant::Standard);
    assert_eq!(
        PriorSource::Scenario.model(chullpa4.site()).as_deref(),
        Some(priors::general_model(4))
    );
    for level in 4..=9 {
        let cfg = crate::level_config(level);
        let tree = TreeSearch::new(chullpa4.site(), &cfg, 1, Vec::new());
        let learned = tree.learned.as_ref().map(|(m, _)| &**m);
        assert_eq!(learned, (level == 9).then(|| priors::general_model(4)), "level {level}");
    }
    assert_eq!(
        PriorSource::Scenario
            .model(game("chullpa", 3, Variant::Standard).site())
            .as_deref(),
        Some(priors::general_model(3))
    );
    assert_eq!(
        PriorSource::Scenario
            .model(game("chullpa", 2, Variant::TwoPlayerFourColors).site())
            .as_deref(),
        Some(priors::general_model(2))
    );
    assert!(PriorSource::Scenario
        .model(game("pirka", 2, Variant::Standard).site())
        .is_none());
    // A user's board: the general model of the player count with 3 and 4 players, for
    // level 9 alone (with 3 the one learned from 3-player games); none with 2.
    let text = "name = \"My own\"\nprovenance = \"reconstruction\"\n\
                hmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n######\n######\n######\n######\n\"\"\"\n";
    let own = rumis_core::Board::from_toml("own.toml", text).unwrap();
    assert_ne!(priors::general_model(3), PriorModel::builtin());
    for (players, want) in [
        (4, Some(priors::general_model(4))),
        (3, Some(priors::general_model(3))),
        (2, None),
    ] {
        let site = Site::new(own.clone(), players, Variant::Standard, None).unwrap();
        assert_eq!(PriorSource::Scenario.model(&site).as_deref(), want, "{players} players");
        for level in 4..=9 {
            let cfg = crate::level_config(level);
            let tree = TreeSearch::new(&site, &cfg, 1, Vec::new());
            let learned = tree.learned.as_ref().map(|(m, _)| &**m);
            assert_eq!(learned, want.filter(|_| level == 9), "level {level}, {players} players");
        }
    }
    assert!(PriorSource::Hand.model(coricancha.site()).is_none());
    let model = Arc::new(PriorModel::builtin().clone());
    assert_eq!(
        PriorSource::Learned(model).model(g.site()).as_deref(),
        Some(PriorModel::builtin())
    );
}

/// Where the learned priors stand: everywhere, or (`learned_own_only`) at the searching
/// side's nodes, and with `learned_for_searchers` also at the nodes of the colours the
/// search does not model as greedy players (with two colours: none; the two-player
/// four-colour game models colours as the game of four does).
#[test]
fn the_learned_priors_stand_where_the_settings_say() {
    let model = Arc::new(PriorModel::builtin().clone());
    for (players, variant) in [
        (2, Variant::Standard),
        (3, Variant::Standard),
        (2, Variant::TwoPlayerFourColors),
    ] {
        let g = game("tambo", players, variant);
        let site = g.site_arc().clone();
        let order = site.order().to_vec();
        let colours = order.len();
        let (own, greedy, searcher) = (order[0], order[1], *order.last().unwrap());
        let base = MctsConfig {
            priors: PriorSource::Learned(model.clone()),
            ..MctsConfig::default()
        }
        .with_others_modelled();
        for (own_only, searchers, want) in [
            (false, false, [true, true, true]),
            (true, false, [true, false, false]),
            (true, true, [true, colours < 3, true]),
        ] {
            let cfg = MctsConfig {
                learned_own_only: own_only,
                learned_for_searchers: searchers,
                ..base.clone()
            };
            assert_eq!(cfg.models_others(&site), colours >= 3, "{players} players, {variant:?}");
            let mut tree = TreeSearch::new(&site, &cfg, 1, Vec::new());
            tree.own = Some(own);
            tree.modelled = [true; 4];
            tree.modelled[searcher.index()] = false;
            let got = [own, greedy, searcher].map(|c| tree.learned_for(c));
            assert_eq!(got, want, "{players} players, {variant:?}, {own_only} {searchers}");
        }
    }
}
